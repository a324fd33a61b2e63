import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, sleep } from './backoff.ts';

const options = { baseMs: 100, maxMs: 5000 };

describe('backoffDelay', () => {
  it('draws up to a cap that doubles per attempt and stops at maxMs', () => {
    expect(backoffDelay(0, options, undefined, () => 1)).toBe(100);
    expect(backoffDelay(3, options, undefined, () => 1)).toBe(800);
    expect(backoffDelay(10, options, undefined, () => 1)).toBe(5000);
    expect(backoffDelay(3, options, undefined, () => 0.5)).toBe(400);
  });

  it('never waits less than Retry-After, nor more than maxMs', () => {
    expect(backoffDelay(0, options, 2000, () => 0)).toBe(2000);
    expect(backoffDelay(0, options, 60_000, () => 0)).toBe(5000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and ignores nonsense', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('sleep', () => {
  it('rejects with the abort reason', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
