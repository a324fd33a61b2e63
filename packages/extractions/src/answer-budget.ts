/**
 * How long the create's enqueue may wait, given when the request arrived. A create is answered
 * within 2 s whether Redis answers or not (docs/operations.md); the enqueue was the one wait
 * with a deadline of its own (ENQUEUE_DEADLINE_MS), counted from when it started. Whatever the
 * request had already waited for (the rate limiter's own Redis call times out after 1 s) came on
 * top, and creates were answered at 2.00–2.03 s while Redis hung. The enqueue now gets what is
 * left of the 2 s, less a reserve for answering.
 */

/** From the request's arrival to its answer, Redis or not. */
const ANSWER_WITHIN_MS = 2_000;
/** Kept back for what follows the enqueue: the answer itself, on a loop that may be busy. */
const ANSWER_RESERVE_MS = 300;
/**
 * Never less than this: a request that arrived late in its budget (a slow upload) still gives a
 * healthy Redis, which answers an enqueue in milliseconds, time to take its job.
 */
const MIN_ENQUEUE_MS = 250;

/** The enqueue's deadline in ms for a request that arrived at `receivedAt` (performance.now()). */
export function enqueueBudgetMs(receivedAt: number, now = performance.now()): number {
  return Math.max(MIN_ENQUEUE_MS, receivedAt + ANSWER_WITHIN_MS - ANSWER_RESERVE_MS - now);
}
