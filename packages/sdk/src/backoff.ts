/**
 * When to try again. Full jitter (a random delay up to the exponential cap) spreads clients
 * that failed together so they do not return together; a `Retry-After` from the service is a
 * floor, since it knows better when it will have room.
 */
export interface BackoffOptions {
  /** First delay cap in milliseconds. */
  baseMs: number;
  /** Largest delay in milliseconds, `Retry-After` included. */
  maxMs: number;
}

export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const cap = Math.min(options.maxMs, options.baseMs * 2 ** attempt);
  const jittered = Math.round(cap * random());
  if (retryAfterMs === undefined) return jittered;
  return Math.min(options.maxMs, Math.max(retryAfterMs, jittered));
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date; undefined when absent or bad. */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
