import type { Logger } from 'pino';
import { errorSummary, startPeriodic, type Periodic } from '@xt/runtime';
import type { BatchProvider } from './provider.ts';
import type { BatchRounds } from './rounds.ts';

/**
 * Cancels the provider batches of extractions that were deleted (their job went with them, so
 * nothing else looks at the batch again) and removes the rounds of final extractions. A cancel
 * the provider refuses (a batch already over) still removes the round: nothing of it is read.
 */
export function startBatchSweep(
  deps: { rounds: BatchRounds; provider: BatchProvider; logger: Logger },
  intervalMs: number,
): Periodic {
  const pass = async () => {
    for (const round of await deps.rounds.finished(100)) {
      if (round.batchId && (round.status === 'submitted' || round.status === 'open')) {
        await deps.provider
          .cancel(round.batchId)
          .catch((err: unknown) =>
            deps.logger.info(
              { batchId: round.batchId, error: errorSummary(err) },
              'batch not cancelled',
            ),
          );
        deps.logger.info(
          { batchId: round.batchId, extractionId: round.extractionId },
          'batch of a deleted extraction cancelled',
        );
      }
      await deps.rounds.remove(round.id);
    }
  };
  return startPeriodic(pass, { intervalMs, logger: deps.logger, name: 'batch sweep' });
}
