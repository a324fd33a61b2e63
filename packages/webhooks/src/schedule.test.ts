import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS, parseRetryDelays, retryDelay } from './schedule.ts';

describe('retry schedule', () => {
  const delays = parseRetryDelays(DEFAULT_RETRY_DELAYS);

  it('retries first within 10 s and second within 60 s, growing, for about a day', () => {
    for (const random of [0, 0.5, 0.999]) {
      expect(retryDelay(delays, 1, () => random)).toBeLessThanOrEqual(10_000);
      expect(retryDelay(delays, 2, () => random)).toBeLessThanOrEqual(60_000);
    }
    for (let i = 1; i < delays.length; i++)
      expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0);
    const hours = delays.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(20);
    expect(hours).toBeLessThan(30);
  });

  it('keeps using the last delay past the end, and parses units', () => {
    expect(retryDelay([100, 200], 5, () => 0)).toBe(200);
    expect(parseRetryDelays('250ms, 2s,1.5m,1h')).toEqual([250, 2000, 90_000, 3_600_000]);
    expect(() => parseRetryDelays('5 seconds')).toThrow(/5 seconds/);
  });
});
