import type { Logger } from 'pino';
import { errorSummary, startPeriodic, type Periodic } from '@xt/runtime';
import { BatchUnsupported, type BatchProvider } from './provider.ts';
import type { BatchRounds, Round } from './rounds.ts';

type SweepDeps = { rounds: BatchRounds; provider: BatchProvider; logger: Logger };

/** The sweep below, every `intervalMs`. */
export function startBatchSweep(deps: SweepDeps, intervalMs: number): Periodic {
  return startPeriodic(() => sweepBatches(deps), {
    intervalMs,
    logger: deps.logger,
    name: 'batch sweep',
  });
}

/**
 * One pass: cancels the provider batches of extractions that were deleted (their job went with
 * them, so nothing else looks at the batch again) and removes the rounds of final extractions.
 * A cancel the provider refuses (a batch already over) still removes the round: nothing of it
 * is read.
 */
export async function sweepBatches(deps: SweepDeps): Promise<void> {
  for (const round of await deps.rounds.finished(100)) {
    if (round.status === 'submitted' || round.status === 'open') {
      const batchId = await atProvider(round);
      if (batchId === null) continue;
      if (batchId) await cancel(round, batchId);
    }
    await deps.rounds.remove(round.id);
  }

  /**
   * The round's batch at the provider: its recorded id; for a file uploaded by a run that died
   * before recording the batch, the one its create may have made (found by `metadata.round`,
   * as the runner finds it); undefined when there is none; null when the provider could not be
   * asked now (the round is kept for the next pass).
   */
  async function atProvider(round: Round): Promise<string | undefined | null> {
    if (round.batchId) return round.batchId;
    if (!round.fileId) return undefined;
    try {
      return await deps.provider.find(round.id, round.createdAt);
    } catch (err) {
      if (err instanceof BatchUnsupported) return undefined;
      deps.logger.info({ roundId: round.id, error: errorSummary(err) }, 'batch not looked up');
      return null;
    }
  }

  async function cancel(round: Round, batchId: string): Promise<void> {
    try {
      await deps.provider.cancel(batchId);
      deps.logger.info(
        { batchId, extractionId: round.extractionId },
        'batch of a deleted extraction cancelled',
      );
    } catch (err) {
      deps.logger.info({ batchId, error: errorSummary(err) }, 'batch not cancelled');
    }
  }
}
