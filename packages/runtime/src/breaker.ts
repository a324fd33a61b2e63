/**
 * After a call to a dependency fails, callers skip the dependency for `skipMs` instead of each
 * waiting out its timeout: while it hangs, one call per interval pays the timeout, and the rest
 * take their fallback at once (the create leaves the enqueue to the reconciler, the rate limiter
 * lets requests by). A call that succeeds closes it again.
 */
export interface SkipBreaker {
  /** True while calls should skip the dependency. */
  readonly open: boolean;
  /** A call failed: skip for the interval, unless already skipping (it is not extended). */
  failed(): void;
  succeeded(): void;
}

export function createSkipBreaker(skipMs: number): SkipBreaker {
  let skipUntil = 0;
  return {
    get open() {
      return Date.now() < skipUntil;
    },
    failed() {
      if (Date.now() >= skipUntil) skipUntil = Date.now() + skipMs;
    },
    succeeded() {
      skipUntil = 0;
    },
  };
}
