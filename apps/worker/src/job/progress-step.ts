import type { PageProgress } from '@xt/model';

/** Progress is written at most this often per job: a 1,000-page file is not 1,000 writes. */
export const PROGRESS_INTERVAL_MS = 1_000;

export interface ProgressReporter {
  /** The pages finished so far; written now, or with the next write the interval allows. */
  pagesDone(done: number): void;
  /** Stops writing; resolves once a write in flight has ended. */
  stop(): Promise<void>;
}

/**
 * Writes an extraction's progress (docs/api.md#progress) as its pages finish, throttled: the
 * first change is written at once, later ones at most once per `intervalMs`, always the latest
 * value, never two writes at a time. A failed write is only logged by `onError`: progress is a
 * courtesy, never a reason to fail the job.
 */
export function progressReporter(
  write: (progress: PageProgress) => Promise<unknown>,
  pagesTotal: number,
  onError: (err: unknown) => void,
  intervalMs = PROGRESS_INTERVAL_MS,
): ProgressReporter {
  let latest = 0;
  let written = -1;
  let lastWriteAt = -Infinity;
  let inFlight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const flush = (): void => {
    timer = undefined;
    if (stopped || inFlight || latest === written) return;
    const value = latest;
    lastWriteAt = Date.now();
    inFlight = write({ pagesDone: value, pagesTotal })
      .then(() => void (written = value), onError)
      .finally(() => {
        inFlight = undefined;
        schedule();
      });
  };
  const schedule = (): void => {
    if (stopped || timer || inFlight || latest === written) return;
    const wait = lastWriteAt + intervalMs - Date.now();
    if (wait <= 0) flush();
    else timer = setTimeout(flush, wait);
  };
  return {
    pagesDone(done) {
      latest = Math.max(latest, done);
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
