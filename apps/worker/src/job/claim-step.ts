import type { ExtractionStatus } from '@xt/contract';
import type { ExtractionRow, JobLifecycle } from './lifecycle.ts';

export type ClaimOutcome =
  /** The row is now `processing` under this job. */
  | { next: 'run'; row: ExtractionRow }
  /** Nothing to do: the row was deleted, or an earlier delivery already finished it. */
  | { next: 'skip'; reason: 'deleted' | 'duplicate'; status: ExtractionStatus | 'deleted' }
  /**
   * Claimed more often than attempts allow: started and never finished each time (its worker
   * died or stalled on it). It is failed now instead of being handed on for ever.
   */
  | { next: 'exhausted'; row: ExtractionRow };

/** The first step of every job: pending (or a dead worker's processing) → processing. */
export async function claimStep(
  lifecycle: Pick<JobLifecycle, 'claim'>,
  extractionId: string,
  maxAttempts: number,
): Promise<ClaimOutcome> {
  const claimed = await lifecycle.claim(extractionId);
  if (claimed.kind === 'gone') return { next: 'skip', reason: 'deleted', status: 'deleted' };
  if (claimed.kind === 'final')
    return { next: 'skip', reason: 'duplicate', status: claimed.row.status };
  if (claimed.row.attempts > maxAttempts) return { next: 'exhausted', row: claimed.row };
  return { next: 'run', row: claimed.row };
}
