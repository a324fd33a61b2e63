import { describe, expect, it } from 'vitest';
import { createLimiter } from './limit.ts';

describe('createLimiter', () => {
  it('hands a freed slot to the waiter, not to a newcomer arriving in the same moment', async () => {
    const run = createLimiter(1);
    let running = 0;
    let peak = 0;
    const tracked = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    };
    let releaseFirst = () => {};
    const first = run(() => new Promise<void>((resolve) => (releaseFirst = resolve)));
    const waiter = run(tracked);
    releaseFirst();
    // Arrives after the first task's slot is freed but before the waiter has resumed.
    queueMicrotask(() => void run(tracked));
    await Promise.all([first, waiter]);
    await new Promise((r) => setTimeout(r, 20));
    expect(peak).toBe(1);
  });

  it('runs waiters in arrival order and passes results and errors through', async () => {
    const run = createLimiter(1);
    const order: number[] = [];
    const results = await Promise.all(
      [1, 2, 3].map((n) => run(() => Promise.resolve((order.push(n), n * 10)))),
    );
    expect(results).toEqual([10, 20, 30]);
    expect(order).toEqual([1, 2, 3]);
    await expect(run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(run(() => Promise.resolve('still usable'))).resolves.toBe('still usable');
  });
});
