import { describe, expect, it, vi } from 'vitest';
import type { PageProgress } from '@xt/model';
import { progressReporter } from './progress-step.ts';

describe('progress reporter', () => {
  it('writes the first change at once, then the latest at most once per interval', async () => {
    vi.useFakeTimers();
    try {
      const writes: PageProgress[] = [];
      const reporter = progressReporter(
        (p) => Promise.resolve(void writes.push(p)),
        100,
        () => {},
        1_000,
      );
      reporter.pagesDone(0);
      await vi.advanceTimersByTimeAsync(0);
      expect(writes).toEqual([{ pagesDone: 0, pagesTotal: 100 }]);
      for (let page = 1; page <= 50; page++) reporter.pagesDone(page);
      await vi.advanceTimersByTimeAsync(999);
      expect(writes).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(writes).toEqual([
        { pagesDone: 0, pagesTotal: 100 },
        { pagesDone: 50, pagesTotal: 100 },
      ]);
      // A value reported out of order never moves progress back.
      reporter.pagesDone(20);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(writes).toHaveLength(2);
      // The interval has passed since the last write: written at once.
      reporter.pagesDone(60);
      await vi.advanceTimersByTimeAsync(0);
      expect(writes).toHaveLength(3);
      // Stopped (the job is finishing): what is waiting is never written.
      reporter.pagesDone(70);
      await reporter.stop();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(writes.at(-1)).toEqual({ pagesDone: 60, pagesTotal: 100 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('never fails the job over a write that failed: it is reported and tried again later', async () => {
    vi.useFakeTimers();
    try {
      const errors: unknown[] = [];
      let calls = 0;
      const reporter = progressReporter(
        () => {
          calls += 1;
          return calls === 1 ? Promise.reject(new Error('database away')) : Promise.resolve();
        },
        10,
        (err) => errors.push(err),
        1_000,
      );
      reporter.pagesDone(1);
      await vi.advanceTimersByTimeAsync(0);
      expect(errors).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(calls).toBe(2);
      await reporter.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
