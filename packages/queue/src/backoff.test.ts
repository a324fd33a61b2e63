import { describe, expect, it } from 'vitest';
import { extractionRetryDelay, MAX_RETRY_DELAY_MS } from './backoff.ts';

describe('extractionRetryDelay', () => {
  it('doubles per attempt, with up to half of it taken off as jitter', () => {
    for (let i = 0; i < 50; i++) {
      const first = extractionRetryDelay(1, 5_000);
      const third = extractionRetryDelay(3, 5_000);
      expect(first).toBeGreaterThanOrEqual(2_500);
      expect(first).toBeLessThanOrEqual(5_000);
      expect(third).toBeGreaterThanOrEqual(10_000);
      expect(third).toBeLessThanOrEqual(20_000);
    }
  });

  it("waits at least as long as the failure's Retry-After, within the cap", () => {
    expect(extractionRetryDelay(1, 100, { retryAfterMs: 7_000 })).toBe(7_000);
    expect(extractionRetryDelay(1, 100, { retryAfterMs: 3_600_000 })).toBe(MAX_RETRY_DELAY_MS);
    expect(extractionRetryDelay(1, 100, new Error('no hint'))).toBeLessThanOrEqual(100);
  });
});
