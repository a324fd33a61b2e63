import { sleep } from './backoff.ts';
import type { Extraction, Progress } from './types.ts';

export interface PollOptions {
  signal?: AbortSignal;
  /** First wait before polling; default the 202's `Retry-After`, else 1 s. */
  initialDelayMs?: number;
  /** Each wait grows by half up to this. Default 10 s. */
  maxPollIntervalMs?: number;
  /** Told each record's `progress` while it is processing (pages finished of pages in all). */
  onProgress?: (progress: Progress) => void;
}

const FINAL = new Set(['completed', 'failed']);

/**
 * Reads the record until it is final. Waits grow geometrically because an extraction that is
 * not done after a few seconds (a long PDF, a queue backlog) usually takes minutes, and each
 * poll costs a request against the client's rate limit.
 */
export async function pollUntilFinal(
  read: (signal: AbortSignal | undefined) => Promise<Extraction>,
  options: PollOptions,
): Promise<Extraction> {
  const { signal } = options;
  const max = options.maxPollIntervalMs ?? 10_000;
  let delay = Math.min(max, options.initialDelayMs ?? 1000);
  for (;;) {
    await sleep(delay, signal);
    const record = await read(signal);
    if (FINAL.has(record.status)) return record;
    if (record.progress) options.onProgress?.(record.progress);
    delay = Math.min(max, Math.max(250, delay * 1.5));
  }
}
