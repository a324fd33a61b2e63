import type { Queue } from 'bullmq';
import type { ExtractJobPayload, ExtractionJobPolicy } from '@xt/queue';
import { createSkipBreaker, patientTimeout } from '@xt/runtime';
import { enqueueExtraction } from './enqueue.ts';

/**
 * The longest an enqueue may take before the create is answered anyway. Redis commands time out
 * on their own; this also covers a queue whose connection has not come up since start-up.
 */
const ENQUEUE_DEADLINE_MS = 1_500;
/**
 * After an enqueue failed or timed out, creates skip Redis for this long: while Redis hangs
 * only the first create waits out the deadline, the rest answer at once and the reconciler
 * enqueues their rows when Redis is back.
 */
const SKIP_AFTER_FAILURE_MS = 5_000;

/**
 * The create path's enqueue, per process: bounded by a deadline and behind a breaker. A failure
 * is not the caller's failure (the committed row is the record and the reconciler gives it its
 * job), so it resolves false instead of throwing, with the error for the outage report.
 */
export function createEnqueueBreaker(queue: Queue) {
  const breaker = createSkipBreaker(SKIP_AFTER_FAILURE_MS);
  return async function enqueue(
    payload: ExtractJobPayload,
    policy: ExtractionJobPolicy,
    /** What is left of the request's own budget, when shorter (answer-budget.ts). */
    budgetMs = ENQUEUE_DEADLINE_MS,
  ): Promise<{ ok: true } | { ok: false; error: unknown }> {
    try {
      if (breaker.open) throw new Error('Redis failed moments ago; enqueue left to the reconciler');
      await withinDeadline(
        enqueueExtraction(queue, payload, policy),
        Math.min(ENQUEUE_DEADLINE_MS, budgetMs),
        'enqueue timed out',
      );
    } catch (error) {
      breaker.failed();
      return { ok: false, error };
    }
    breaker.succeeded();
    return { ok: true };
  };
}

/**
 * `work`, or an error once `ms` have passed. Not p-timeout: that builds its error, stack and
 * all, on every call, which was about 3% of the API's CPU per create (docs/performance.md).
 * The time is the event loop's own (patientTimeout): a busy API answers its creates later, and
 * does not take Redis for down (and skip it for every create) because of its own delay.
 */
function withinDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let cancel: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    cancel = patientTimeout(ms, () => reject(new Error(message)));
  });
  return Promise.race([work, deadline]).finally(() => cancel?.());
}
