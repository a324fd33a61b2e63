import { ExtractionFailure } from '@xt/contract';
import type { Spent } from '@xt/extractions';
import type { Spend } from './cost.ts';
import type { JobLifecycle } from './lifecycle.ts';

/** Anything thrown by a step, as the failure the row records. Unknown errors are retryable. */
export function asFailure(err: unknown): ExtractionFailure {
  if (err instanceof ExtractionFailure) return err;
  return new ExtractionFailure('INTERNAL', 'The extraction failed unexpectedly.', {
    retryable: true,
    cause: err,
  });
}

/**
 * Attempts left after this one: the fewer of BullMQ's (the job's own `attempts`) and the row's
 * (JOB_ATTEMPTS, counted on the row so that stalls and reconciling use them up too). A page
 * window's job has no count on the row (the row counts its extraction's claims): its own only.
 */
export function attemptsLeft(counts: {
  jobAttempts: number;
  attemptsMade: number;
  maxAttempts?: number | undefined;
  rowAttempts?: number | undefined;
}): number {
  const ownLeft = counts.jobAttempts - (counts.attemptsMade + 1);
  if (counts.maxAttempts === undefined || counts.rowAttempts === undefined) return ownLeft;
  return Math.min(ownLeft, counts.maxAttempts - counts.rowAttempts);
}

export type FailurePlan = 'retry' | 'fail';

/** A retryable failure with attempts left goes back to `pending`; any other is final. */
export function planFailure(failure: ExtractionFailure, left: number): FailurePlan {
  return failure.retryable && left > 0 ? 'retry' : 'fail';
}

/**
 * Records the failure as planned: back to `pending` (the error kept for operators, the tokens
 * spent counted, uncharged) or `failed` for good. `written` is false when the row had left
 * `processing` meanwhile.
 */
export async function failureStep(
  lifecycle: Pick<JobLifecycle, 'recordFailure'>,
  extractionId: string,
  failure: ExtractionFailure,
  plan: FailurePlan,
  /** what the failure's tokens cost (job/cost.ts); nothing when absent */
  price: (spend: Spend) => Spent = ({ tokens, usage }) => ({ tokens, usage, costUsd: 0 }),
): Promise<{ written: boolean }> {
  const spent = price({
    tokens: failure.tokens,
    usage: failure.usage,
    batchUsage: failure.batchUsage,
  });
  const written = await lifecycle.recordFailure(
    extractionId,
    { code: failure.code, message: failure.message, ...spent },
    plan === 'retry' ? 'pending' : 'failed',
  );
  return { written };
}

/** The failure of a row claimed more often than attempts allow (see claimStep's `exhausted`). */
export function exhaustedFailure(claims: number): ExtractionFailure {
  return new ExtractionFailure(
    'TIMEOUT',
    `The extraction was started ${claims - 1} times and never finished (its worker stopped or stalled each time); it is not tried again.`,
  );
}
