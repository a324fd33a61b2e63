import { describe, expect, it } from 'vitest';
import { runPool } from './pool.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('runPool', () => {
  it('runs every item with at most `concurrency` in flight', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await tick();
      seen.push(n);
      running--;
    });
    expect(most).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('starts nothing new after a failure, lets running tasks end, and throws the first error', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = runPool([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 1) throw new Error('bad key');
      await tick();
      finished.push(n);
    });
    await expect(run).rejects.toThrow('bad key');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([2]);
  });
});
