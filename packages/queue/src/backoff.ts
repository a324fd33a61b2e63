/** The backoff type extraction jobs carry; the worker's strategy computes the delay. */
export const EXTRACTION_BACKOFF = 'extraction';

/** No retry waits longer than this, whatever a provider asks for. */
export const MAX_RETRY_DELAY_MS = 5 * 60_000;

/**
 * Delay before the next attempt: exponential from `baseMs` (doubling per attempt made) with
 * 50 % jitter, so a crowd of jobs failing together (a provider outage) does not come back
 * together; but never sooner than the `retryAfterMs` the failure carries (a provider's
 * Retry-After).
 */
export function extractionRetryDelay(attemptsMade: number, baseMs: number, err?: unknown): number {
  const ceiling = Math.pow(2, Math.max(0, attemptsMade - 1)) * baseMs;
  const jittered = ceiling / 2 + Math.random() * (ceiling / 2);
  const asked = (err as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  const floor = typeof asked === 'number' && Number.isFinite(asked) ? asked : 0;
  return Math.round(Math.min(MAX_RETRY_DELAY_MS, Math.max(jittered, floor)));
}
