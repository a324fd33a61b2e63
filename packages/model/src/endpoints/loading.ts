import { APIError } from 'openai';
import { sleep } from './sleep.ts';

/** First wait after a server said it is loading the model; doubled up to MAX_STEP_MS. */
const FIRST_STEP_MS = 1_000;
const MAX_STEP_MS = 10_000;

/**
 * A server loading its model answers 503 until it is ready: llama.cpp's server
 * `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}` while it reads
 * the weights, and Ollama and LM Studio while they swap one model for another. Loading takes
 * seconds to minutes on a local machine; failing the extraction (or burning its attempts on the
 * queue's backoff) for it would be wrong, so the call waits here up to `maxWaitMs`.
 */
export async function whileLoading<T>(
  call: () => Promise<T>,
  maxWaitMs: number,
  signal?: AbortSignal,
  /** told before each wait */
  onWait?: () => void,
): Promise<T> {
  const deadline = Date.now() + maxWaitMs;
  let step = FIRST_STEP_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!isLoading(error) || Date.now() + step > deadline) throw error;
      onWait?.();
      await sleep(step, signal);
      step = Math.min(step * 2, MAX_STEP_MS);
    }
  }
}

export function isLoading(error: unknown): boolean {
  if (!(error instanceof APIError) || error.status !== 503) return false;
  const body = error.error as { message?: unknown } | undefined;
  const text = `${typeof body?.message === 'string' ? body.message : ''} ${error.message}`;
  return /\bloading\b/i.test(text);
}
