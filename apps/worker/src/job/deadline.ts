import { ExtractionFailure } from '@xt/contract';

/**
 * The job's deadline (JOB_TIMEOUT_MS) joined with the worker's own stop signal: the steps are
 * handed the one signal, and whatever they wait for is raced against it.
 */
export function startDeadline(
  timeoutMs: number,
  stop: AbortSignal | undefined,
): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('job timeout')), timeoutMs);
  return {
    signal: stop ? AbortSignal.any([controller.signal, stop]) : controller.signal,
    clear: () => clearTimeout(timer),
  };
}

/** Races work against the job deadline; the work itself is told through the same signal. */
export function withTimeout<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(timeoutFailure());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timeoutFailure());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

export function timeoutFailure(): ExtractionFailure {
  return new ExtractionFailure('TIMEOUT', 'The extraction took longer than the job time limit.', {
    retryable: true,
  });
}
