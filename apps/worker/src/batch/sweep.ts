import type { Logger } from 'pino';
import { errorSummary, startPeriodic, type Periodic } from '@xt/runtime';
import { BatchUnsupported, type BatchProvider } from './provider.ts';
import type { BatchRounds, Round } from '@xt/extractions';

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
 * them, so nothing else looks at the batch again), deletes those rounds' files at the provider,
 * and removes the rounds of final extractions (a round whose answers were read had its files
 * deleted then, unless that failed or its batch was still cancelling: they are deleted now). A round whose batch is still cancelling is kept for the next pass: the cancel
 * writes an output file of what was answered meanwhile, deleted once it is there. A provider
 * that refuses or fails a step still has the round removed: nothing of it is read.
 */
export async function sweepBatches(deps: SweepDeps): Promise<void> {
  for (const round of await deps.rounds.finished(100)) {
    if (round.status === 'submitted' || round.status === 'open') {
      const batchId = await atProvider(round);
      if (batchId === null) continue;
      if (batchId && (await stillCancelling(round, batchId))) continue;
      await discard(round, batchId);
    } else if (round.fileId && round.batchId) {
      // Read, but its files not deleted yet (rounds.discarded says why a file id is left).
      if (await stillCancelling(round, round.batchId)) continue;
      await discard(round, round.batchId);
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

  /** Cancels the batch unless it is over; whether it is still cancelling afterwards. */
  async function stillCancelling(round: Round, batchId: string): Promise<boolean> {
    try {
      let state = await deps.provider.state(batchId);
      if (state.kind === 'working' && state.status !== 'cancelling') {
        await deps.provider.cancel(batchId);
        deps.logger.info(
          { batchId, extractionId: round.extractionId },
          'batch of a deleted extraction cancelled',
        );
        state = await deps.provider.state(batchId);
      }
      return state.kind === 'working';
    } catch (err) {
      deps.logger.info({ batchId, error: errorSummary(err) }, 'batch not cancelled');
      return false;
    }
  }

  async function discard(round: Round, batchId: string | undefined): Promise<void> {
    if (!round.fileId && !batchId) return;
    try {
      await deps.provider.discard({ fileId: round.fileId, batchId: batchId ?? null });
    } catch (err) {
      deps.logger.info({ roundId: round.id, error: errorSummary(err) }, 'batch files not deleted');
    }
  }
}
