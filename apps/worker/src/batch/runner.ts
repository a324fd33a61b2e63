import type { Logger } from 'pino';
import { errorSummary } from '@xt/runtime';
import { ExtractionFailure, type ModelUsage, type PreparedSource } from '@xt/contract';
import {
  extract,
  providerFailure,
  type ChatTransport,
  type ExtractResult,
  type ModelClient,
} from '@xt/model';
import { rowRequest } from '../job/extract-step.ts';
import type { ExtractionRow } from '../job/lifecycle.ts';
import { BatchUnsupported, type BatchProvider } from './provider.ts';
import { replay } from './replay.ts';
import type { BatchRounds, Round } from '@xt/extractions';

/**
 * Thrown when a batch extraction waits for the provider: the job is put back until `untilMs`
 * (a delayed job, holding no worker slot) and the row stays `processing`.
 */
export class BatchWait extends Error {
  constructor(readonly untilMs: number) {
    super('waiting for the provider’s batch');
  }
}

export interface BatchSettings {
  /** BATCH_WINDOW_HOURS in milliseconds: by then the extraction has its answer. */
  windowMs: number;
  /** How often a batch still at the provider is looked at (BATCH_POLL_MS). */
  pollMs: number;
  /** `off`: batch extractions run as standard work (BATCH_INTERFACE). */
  mode: 'auto' | 'off';
}

/**
 * When what is left goes out as standard calls: a tenth of the window before its end, at most
 * 30 minutes before, so standard calls have the time to answer within the window.
 */
export function fallbackAt(createdAt: Date, windowMs: number): number {
  return createdAt.getTime() + windowMs - Math.min(windowMs / 10, 30 * 60_000);
}

type BatchRow = Pick<
  ExtractionRow,
  'id' | 'createdAt' | 'model' | 'schemaStructure' | 'instruction' | 'citationsRequested'
>;

/**
 * A batch extraction's model calls (docs/batch.md): sent in rounds through the provider's batch
 * interface, each round recorded before and after every provider step (`batchRounds` in
 * packages/extractions), the job put back (BatchWait) while the provider works. `advance` runs before the source is prepared, so
 * a look at a batch still working costs no preparation; `extract` runs once it is over.
 */
export function createBatchRunner(deps: {
  model: ModelClient;
  provider: BatchProvider;
  rounds: BatchRounds;
  settings: BatchSettings;
  logger: Logger;
}) {
  const { provider, rounds, settings } = deps;
  let unsupported = settings.mode === 'off';

  const standard: ChatTransport = (body, signal) =>
    deps.model.schedule(() => deps.model.openai.chat.completions.create(body, { signal }));

  const waitUntil = (row: BatchRow) =>
    new BatchWait(
      Math.max(
        Date.now() + 50,
        Math.min(Date.now() + settings.pollMs, fallbackAt(row.createdAt, settings.windowMs)),
      ),
    );

  /** Provider faults are the model's: retried like a failed call (MODEL_UNAVAILABLE, …). */
  const asFailure = (error: unknown): never => {
    if (error instanceof BatchUnsupported || error instanceof ExtractionFailure) throw error;
    throw providerFailure(error, deps.model.redact);
  };

  /** Sends the round's steps not yet done, recording each: file, then batch. */
  async function submit(round: Round): Promise<void> {
    let fileId = round.fileId;
    if (!fileId) {
      fileId = await provider.upload(round.id, round.requests);
      await rounds.uploaded(round.id, fileId);
    }
    const batchId =
      (await provider.find(round.id, round.createdAt)) ?? (await provider.create(fileId, round.id));
    await rounds.submitted(round.id, batchId);
  }

  /**
   * Drives the extraction's round still at the provider, if any: submits what a killed worker
   * left unsent, reads the answers of a batch that is over, cancels one past the fallback (what
   * it answered still counts). Throws BatchWait while the provider works.
   */
  async function advance(row: BatchRow): Promise<void> {
    const open = (await rounds.list(row.id)).find(
      (r) => r.status === 'open' || r.status === 'submitted',
    );
    if (!open) return;
    try {
      if (!open.batchId) {
        // Left unsent by a run that was killed; another run still sending it holds its lease.
        if (await rounds.take(open.id)) await submit(open);
        throw waitUntil(row);
      }
      const state = await provider.state(open.batchId);
      if (state.kind === 'working') {
        if (Date.now() < fallbackAt(row.createdAt, settings.windowMs)) throw waitUntil(row);
        deps.logger.info({ batchId: open.batchId }, 'batch window ending; the rest goes standard');
        await provider.cancel(open.batchId);
      }
      await rounds.done(open.id, await provider.answers(open.batchId));
      // A batch cancelled just now writes its output file once the cancel is over: the sweep
      // deletes the files then, when the extraction is final.
      if (state.kind === 'over') await discard(open, open.batchId);
    } catch (error) {
      if (error instanceof BatchWait) throw error;
      if (error instanceof BatchUnsupported) {
        markUnsupported(error);
        await rounds.remove(open.id);
        return;
      }
      asFailure(error);
    }
  }

  /**
   * The round's files at the provider, once its answers are recorded: they hold the source's
   * text and images and have served. A delete that fails is tried again by the sweep.
   */
  async function discard(round: Round, batchId: string): Promise<void> {
    try {
      await provider.discard({ fileId: round.fileId, batchId });
      await rounds.discarded(round.id);
    } catch (error) {
      deps.logger.warn(
        { batchId, error: errorSummary(error) },
        'batch files not deleted at the provider; the sweep tries again',
      );
    }
  }

  function markUnsupported(error: BatchUnsupported): void {
    if (unsupported) return;
    unsupported = true;
    deps.logger.warn(
      { reason: error.message },
      'the provider has no batch interface: batch extractions run as standard work',
    );
  }

  /**
   * The extraction's answer from its rounds, or a new round sent and BatchWait. `batchUsage`
   * is the part of its usage the batch interface answered; the rest went as standard calls.
   */
  async function run(
    row: BatchRow,
    source: PreparedSource,
    signal: AbortSignal,
  ): Promise<ExtractResult & { batchUsage: ModelUsage }> {
    const done = await rounds.list(row.id);
    const answers: Record<string, unknown> = {};
    const answered = done.filter((r) => r.status === 'done');
    for (const r of answered) Object.assign(answers, r.answers ?? {});
    const fresh = new Set(Object.keys(answered.at(-1)?.answers ?? {}));
    const standardNow = unsupported || Date.now() >= fallbackAt(row.createdAt, settings.windowMs);
    const outcome = await replay(
      (transport, inner) =>
        extract({
          client: deps.model,
          ...rowRequest(row),
          source,
          signal: inner,
          // Every chunk's request goes in the same round: none waits for a slot.
          concurrency: Number.MAX_SAFE_INTEGER,
          transport,
        }),
      answers,
      standard,
      standardNow,
      signal,
      fresh,
    );
    if (outcome.kind === 'done') return { ...outcome.result, batchUsage: outcome.batchUsage };
    const round = await rounds.open(row.id, outcome.requests, outcome.answered);
    // Another run of this job (a lock handed on) opened one first: it sends it.
    if (!round) throw waitUntil(row);
    try {
      await submit(round);
    } catch (error) {
      if (!(error instanceof BatchUnsupported)) asFailure(error);
      markUnsupported(error as BatchUnsupported);
      await rounds.remove(round.id);
      return run(row, source, signal);
    }
    throw waitUntil(row);
  }

  return { advance, run };
}

export type BatchRunner = ReturnType<typeof createBatchRunner>;
