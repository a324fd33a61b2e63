import {
  DelayedError,
  UnrecoverableError,
  WaitingChildrenError,
  WaitingError,
  type Job,
} from 'bullmq';
import type { Logger } from 'pino';
import {
  ExtractionFailure,
  type ModelUsage,
  type PreparedSource,
  type SourceType,
} from '@xt/contract';
import { isDatabaseUnavailable } from '@xt/db';
import { countPages, DEFAULT_PRICES, type ExtractResult, type PriceTable } from '@xt/model';
import type { ModelAccess } from './job/model-access.ts';
import { forJobFailure, type ExtractJobPayload } from '@xt/queue';
import { createOutageReporter, errorSummary } from '@xt/runtime';
import type { PreparationStore, SourcePreparer } from '@xt/sources';
import { untimed } from './ops/stages.ts';
import type { WorkerMetrics } from './ops/worker-metrics.ts';
import type { PagePreviews } from './page-previews/index.ts';
import { claimStep } from './job/claim-step.ts';
import { priceSpend } from './job/cost.ts';
import { startDeadline, withTimeout } from './job/deadline.ts';
import { extractStep } from './job/extract-step.ts';
import {
  asFailure,
  attemptsLeft,
  exhaustedFailure,
  failureStep,
  planFailure,
} from './job/failure-step.ts';
import { finishStep } from './job/finish-step.ts';
import type { ExtractionRow, JobLifecycle } from './job/lifecycle.ts';
import { deletedWhilePreparing, prepareStep, recordFound } from './job/prepare-step.ts';
import { progressReporter, type ProgressReporter } from './job/progress-step.ts';
import { reuseEvidenceStep } from './job/reuse-evidence-step.ts';
import { reuseContent, reuseStep, type JobReuse, type ReuseStepOutcome } from './job/reuse-step.ts';
import { BatchWait, type BatchRunner } from './batch/runner.ts';
import { databaseRetryAt, stoppedForShutdown, withJobLog } from './job/job-run.ts';
import { mergeWindowsStep } from './job/windows/merge-step.ts';
import { splitStep, type FetchedLong, type WindowSplit } from './job/windows/split-step.ts';
import type { WindowStore } from './job/windows/store.ts';
import { waitForWindows } from './job/windows/wait-step.ts';
import { planWindows } from './job/windows/plan.ts';

export interface ProcessorDeps {
  /** The row's transitions and the "finished" message (job/lifecycle.ts). */
  lifecycle: JobLifecycle;
  /** each row's model: its endpoint's client and capabilities (docs/models.md) */
  models: ModelAccess;
  sources: SourcePreparer;
  logger: Logger;
  jobTimeoutMs: number;
  /**
   * Claims of one extraction at most (JOB_ATTEMPTS). Counted on the row, so a job that stalls
   * its worker and is handed on (stalled-job handling, the reconciler) uses them up too.
   */
  maxAttempts: number;
  /** False when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set: fail fast, do not retry. */
  modelConfigured: boolean;
  /** Stage durations, outcomes, retries (docs/observability.md); none recorded when absent. */
  metrics?: WorkerMetrics;
  /** Stores previews of the cited pages (page-previews/); none when absent. */
  previews?: PagePreviews;
  /** Reuse of earlier answers for URL sources (job/reuse-step.ts); none when absent. */
  reuse?: JobReuse;
  /** Earlier preparations of the same files, per job (job/preparations.ts); none when absent. */
  preparations?: (row: ExtractionRow) => PreparationStore | undefined;
  /** What tokens cost (MODEL_PRICES over the defaults, docs/cost.md); the defaults when absent. */
  prices?: PriceTable;
  /** Batch priority's rounds (batch/runner.ts); batch extractions run as standard when absent. */
  batch?: BatchRunner;
  /**
   * Page windows of long documents (SPLIT_PAGES, docs/scaling.md#one-large-document), worked
   * as jobs of their own (window-processor.ts); every document is one job when absent.
   */
  windows?: { store: WindowStore; splitPages: number };
}

/**
 * The extraction job handler, as named steps (job/): claim the row, prepare the source, call
 * the model, finish (ground, preview, complete), or record the failure. Each step is a function
 * of its own with its own tests; this file only sequences them, times them and logs.
 * Retryable failures return the row to `pending` and let BullMQ back off and retry; the rest
 * fail it at once (UnrecoverableError).
 *
 * Two interruptions use no attempt: PostgreSQL being unreachable (the job is put back for a few
 * seconds, again and again until it answers, since nothing can be recorded meanwhile), and the
 * worker shutting down (the job is handed back to the front of the queue for another worker).
 */
export function createProcessor(deps: ProcessorDeps) {
  const { lifecycle, metrics } = deps;
  const prices = deps.prices ?? DEFAULT_PRICES;
  const time = metrics?.time ?? untimed;
  // A provider that answers 429 or 5xx fails every job's attempt alike: one warning when that
  // starts and one line when a call succeeds again, not a warning per attempt.
  const providerOutage = createOutageReporter(
    deps.logger,
    'model provider',
    'unavailable; attempts are retried with backoff',
  );
  return async function processExtraction(
    job: Job,
    payload: ExtractJobPayload,
    token?: string,
    stop?: AbortSignal,
  ): Promise<{ status: string }> {
    metrics?.picked(job);
    return metrics
      ? metrics.running(() => processOnce(job, payload, token, stop))
      : processOnce(job, payload, token, stop);
  };

  function processOnce(
    job: Job,
    payload: ExtractJobPayload,
    token?: string,
    stop?: AbortSignal,
  ): Promise<{ status: string }> {
    return withJobLog(deps.logger, job, payload, {}, (log) =>
      handle(job, payload, log, token, stop),
    );
  }

  async function handle(
    job: Job,
    payload: ExtractJobPayload,
    log: Logger,
    token: string | undefined,
    stop: AbortSignal | undefined,
  ): Promise<{ status: string }> {
    const { extractionId } = payload;
    try {
      // The run after the document's windows were stored: merge them (job/windows/).
      if (payload.windows && deps.windows)
        return await mergeWindows(job, payload, payload.windows, log, token);
      return await run(job, payload, log, token, stop);
    } catch (err) {
      if (err instanceof WaitingChildrenError) throw err;
      if (stoppedForShutdown(stop) && token) {
        await lifecycle.release(extractionId).catch(() => false);
        await job.moveToWait(token);
        metrics?.requeued('shutdown');
        log.info('handed back to the queue at shutdown');
        throw new WaitingError();
      }
      if (err instanceof BatchWait && token) {
        // Waiting for the provider holds no worker slot: the job comes back when it is due.
        await lifecycle.pause(extractionId);
        await job.moveToDelayed(err.untilMs, token);
        log.debug({ until: new Date(err.untilMs).toISOString() }, 'waiting for the batch');
        throw new DelayedError();
      }
      if (isDatabaseUnavailable(err) && token) {
        await job.moveToDelayed(databaseRetryAt(), token);
        metrics?.requeued('database_unavailable');
        // Not a warning per job: the outage itself is warned about once (postgres connection lost).
        log.info({ error: errorSummary(err) }, 'database unavailable; job put back for later');
        throw new DelayedError();
      }
      // BullMQ stores what is thrown (message and stack) on the job.
      throw forJobFailure(err);
    }
  }

  async function run(
    job: Job,
    payload: ExtractJobPayload,
    log: Logger,
    token: string | undefined,
    stop: AbortSignal | undefined,
  ): Promise<{ status: string }> {
    const { extractionId } = payload;
    const claimed = await claimStep(lifecycle, extractionId, deps.maxAttempts);
    if (claimed.next === 'skip') {
      if (claimed.reason === 'deleted') log.info('extraction was deleted; nothing to do');
      else
        log.info(
          { status: claimed.status },
          'extraction already finished; duplicate delivery ignored',
        );
      metrics?.finished(claimed.reason);
      return { status: claimed.status };
    }
    const row = claimed.row;
    if (claimed.next === 'exhausted') return failExhausted(row, log);

    const deadline = startDeadline(deps.jobTimeoutMs, stop);
    const { signal } = deadline;
    try {
      return await runSteps(row, log, signal, (split) =>
        splitIntoWindows(job, payload, split, log, token),
      );
    } catch (err) {
      // Handed back, put back or waiting for its windows: nothing is recorded as a failure.
      if (
        stop?.aborted ||
        isDatabaseUnavailable(err) ||
        err instanceof BatchWait ||
        err instanceof WaitingChildrenError
      )
        throw err;
      return await fail(job, row, asFailure(err), log);
    } finally {
      deadline.clear();
    }
  }

  /**
   * prepare → extract → finish, for a claimed row, within the job's deadline; or, for a long
   * document, split → its windows' jobs (`windowed`).
   */
  async function runSteps(
    claimed: ExtractionRow,
    log: Logger,
    signal: AbortSignal,
    windowed: (split: WindowSplit) => Promise<{ status: string }>,
  ): Promise<{ status: string }> {
    // Not retryable: no attempt can succeed until the worker is configured.
    if (!deps.modelConfigured)
      throw new ExtractionFailure(
        'MODEL_UNAVAILABLE',
        'No model provider is configured on the worker: set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible server).',
      );
    // Learnt before anything is prepared: an endpoint that cannot be reached fails (or retries)
    // the extraction having read nothing, and the preparation follows what the model takes.
    const model = await deps.models.forModel(claimed.model, signal);
    // A batch still at the provider is looked at before anything is prepared. Only the batch
    // interface's own endpoint has one; another endpoint's batch extraction goes standard.
    const batch =
      claimed.priority === 'batch' && model.client === deps.models.clients.primary
        ? deps.batch
        : undefined;
    if (batch) await batch.advance(claimed);
    const windows = batch ? undefined : deps.windows;
    const preparations = deps.preparations?.(claimed);
    const split = windows
      ? await withTimeout(
          splitStep(
            deps.sources,
            (id, pdfs, notesPages) => windows.store.keepPdfs(id, pdfs, notesPages),
            claimed,
            windows.splitPages,
            {
              signal,
              preparations,
              beforeWindows: (found) => beforeWindows(claimed, found, log),
              images: model.capabilities.images,
            },
          ),
          signal,
        )
      : undefined;
    if (split?.next === 'done') return { status: split.status };
    if (split?.next === 'windows') return windowed(split.split);
    const preparing = performance.now();
    const source = await withTimeout(
      split?.next === 'whole'
        ? split.prepare()
        : prepareStep(deps.sources, claimed, signal, preparations, {
            images: model.capabilities.images,
          }),
      signal,
    );
    if (await deletedWhilePreparing(lifecycle, claimed.id, performance.now() - preparing)) {
      metrics?.finished('deleted');
      return { status: 'deleted' };
    }
    const row = await recordFound(lifecycle, claimed, source);
    const type = row.sourceType;
    if (deps.reuse) {
      const reused = await reuseStep(deps.reuse, row, source);
      if (reused.next === 'done' && reused.outcome === 'completed')
        await reuseEvidenceStep(
          { reuse: deps.reuse, previews: deps.previews },
          row.id,
          source,
          log,
        );
      if (reused.next === 'done') return completedFromReuse(row.id, reused, log);
    }
    const progress = startProgress(row.id, source, log);
    const result: ExtractResult & { batchUsage?: ModelUsage } = await withTimeout(
      time('model', type, () =>
        batch
          ? batch.run(row, source, signal)
          : extractStep(model, row, source, signal, {
              onPagesDone: (done) => progress?.pagesDone(done),
            }),
      ),
      signal,
    ).finally(() => progress?.stop());
    providerOutage.recovered();
    const { written } = await time('store', type, () =>
      finishStep(
        deps,
        row.id,
        row.citationsRequested,
        source,
        result,
        priceSpend(prices, row, {
          tokens: result.totalTokens,
          usage: result.usage,
          batchUsage: result.batchUsage,
        }),
      ),
    );
    metrics?.finished(written ? 'completed' : 'discarded');
    log.info({ tokens: result.totalTokens, calls: result.calls, written }, 'extraction completed');
    if (written) await notify(row.id, log);
    return { status: written ? 'completed' : 'discarded' };
  }

  /**
   * A URL source found long enough for page windows, before they are cut: what one job records
   * after fetching is recorded now (the kind and format found, the reuse key), since no job
   * prepares the whole of it; an earlier answer for the same fetched bytes completes it instead
   * (job/reuse-step.ts), with no window cut.
   */
  async function beforeWindows(
    claimed: ExtractionRow,
    found: FetchedLong,
    log: Logger,
  ): Promise<{ status: string } | undefined> {
    const row = await recordFound(lifecycle, claimed, {
      found: { type: found.kind, format: found.format },
    });
    if (!deps.reuse) return undefined;
    const reused = await reuseContent(deps.reuse, row, {
      kind: 'fetched',
      sha256: found.sha256,
      contentType: found.contentType,
    });
    return reused.next === 'done' ? completedFromReuse(row.id, reused, log) : undefined;
  }

  /** Completed from an earlier answer (or found no longer processing meanwhile). */
  async function completedFromReuse(
    extractionId: string,
    reused: Extract<ReuseStepOutcome, { next: 'done' }>,
    log: Logger,
  ): Promise<{ status: string }> {
    const written = reused.outcome === 'completed';
    metrics?.finished(written ? 'completed' : 'discarded');
    log.info({ reusedFrom: reused.originalId, written }, 'extraction completed from reuse');
    if (written) await notify(extractionId, log);
    return { status: written ? 'completed' : 'discarded' };
  }

  /** A long document's windows go to the queue; this job waits for them, holding no slot. */
  async function splitIntoWindows(
    job: Job,
    payload: ExtractJobPayload,
    split: WindowSplit,
    log: Logger,
    token: string | undefined,
  ): Promise<{ status: string }> {
    if (!deps.windows || !token) throw new Error('page windows need the job token');
    const state = await waitForWindows(job, token, payload, split, {
      windows: deps.windows.store,
      lifecycle,
    });
    log.info(
      { pages: split.pagesTotal, windows: planWindows(split.pagesTotal, split.splitPages).length },
      'document split into page windows',
    );
    if (state === 'waiting') throw new WaitingChildrenError();
    return mergeWindows(job, payload, split, log, token);
  }

  /**
   * Every window stored: their answers merged in page order, grounded in the document's pages,
   * completed and charged once for what all of them spent. A window still missing (its job was
   * lost) is added again first. A merge that fails fails the extraction: merging again would
   * give the same answer.
   */
  async function mergeWindows(
    job: Job,
    payload: ExtractJobPayload,
    split: WindowSplit,
    log: Logger,
    token: string | undefined,
  ): Promise<{ status: string }> {
    const windows = deps.windows;
    if (!windows || !token) throw new Error('page windows need the job token');
    const found = await windows.store.row(payload.extractionId);
    if (found.kind !== 'processing') {
      log.info({ reason: found.kind }, 'extraction deleted or finished while its windows ran');
      metrics?.finished(found.kind === 'gone' ? 'deleted' : 'duplicate');
      return { status: found.kind === 'gone' ? 'deleted' : 'duplicate' };
    }
    const row = found.row;
    const state = await waitForWindows(job, token, payload, split, {
      windows: windows.store,
      lifecycle,
    });
    if (state === 'waiting') throw new WaitingChildrenError();
    const stored = await windows.store.list(row.id);
    if (stored.length < planWindows(split.pagesTotal, split.splitPages).length)
      throw new Error('page windows missing after every window finished; retried');
    let merged;
    try {
      merged = mergeWindowsStep(row.schemaStructure, stored);
    } catch (err) {
      const failure = asFailure(err);
      const { written } = await failureStep(lifecycle, row.id, failure, 'fail', (spend) =>
        priceSpend(prices, row, spend),
      );
      metrics?.finished('failed', failure.code);
      log.warn({ code: failure.code, written }, 'extraction failed: its windows do not merge');
      if (written) await notify(row.id, log);
      throw new UnrecoverableError(`${failure.code}: ${failure.message}`);
    }
    const pageImages = merged.pageImages;
    const { written } = await time('store', row.sourceType, () =>
      finishStep(
        { lifecycle, previews: () => Promise.resolve(pageImages) },
        row.id,
        row.citationsRequested,
        merged.source,
        merged.answer,
        priceSpend(prices, row, { tokens: merged.tokens, usage: merged.usage }),
      ),
    );
    metrics?.finished(written ? 'completed' : 'discarded');
    log.info(
      { tokens: merged.tokens, calls: merged.calls, windows: stored.length, written },
      'extraction completed from its page windows',
    );
    if (written) await notify(row.id, log);
    return { status: written ? 'completed' : 'discarded' };
  }

  /** Progress of a source of several pages, written as they finish (job/progress-step.ts). */
  function startProgress(
    extractionId: string,
    source: PreparedSource,
    log: Logger,
  ): ProgressReporter | undefined {
    const pagesTotal = countPages(source.parts);
    if (pagesTotal < 2) return undefined;
    const reporter = progressReporter(
      (progress) => lifecycle.recordProgress(extractionId, progress),
      pagesTotal,
      (err) => log.debug({ error: errorSummary(err) }, 'progress not written'),
    );
    reporter.pagesDone(0);
    return reporter;
  }

  /** A failed attempt: retried while attempts are left and the failure allows it, else final. */
  async function fail(
    job: Job,
    row: ExtractionRow,
    failure: ExtractionFailure,
    log: Logger,
  ): Promise<never> {
    const left = attemptsLeft({
      jobAttempts: job.opts.attempts ?? 1,
      attemptsMade: job.attemptsMade,
      maxAttempts: deps.maxAttempts,
      rowAttempts: row.attempts,
    });
    const plan = planFailure(failure, left);
    const { written } = await time('store', row.sourceType, () =>
      failureStep(lifecycle, row.id, failure, plan, (spend) => priceSpend(prices, row, spend)),
    );
    const error = errorSummary(failure.cause ?? failure);
    if (plan === 'retry') {
      metrics?.retry(failure.code);
      const providerDown = failure.code === 'MODEL_UNAVAILABLE';
      if (providerDown) providerOutage.failed(failure.cause ?? failure);
      log[providerDown ? 'info' : 'warn'](
        { code: failure.code, error, attemptsLeft: left },
        'attempt failed; will retry',
      );
      throw failure;
    }
    metrics?.finished('failed', failure.code);
    log.warn({ code: failure.code, error, written }, 'extraction failed');
    if (written) await notify(row.id, log);
    throw new UnrecoverableError(`${failure.code}: ${failure.message}`);
  }

  /** A row claimed more often than attempts allow fails now, uncharged (claimStep). */
  async function failExhausted(row: ExtractionRow, log: Logger): Promise<never> {
    const failure = exhaustedFailure(row.attempts);
    const type: SourceType = row.sourceType;
    const { written } = await time('store', type, () =>
      failureStep(lifecycle, row.id, failure, 'fail'),
    );
    metrics?.finished('failed', failure.code);
    log.warn(
      { code: failure.code, claims: row.attempts, written },
      'extraction failed: attempts used up',
    );
    if (written) await notify(row.id, log);
    throw new UnrecoverableError(`${failure.code}: ${failure.message}`);
  }

  /** Wakes waiting API requests; when Redis cannot take it, they find out by polling. */
  async function notify(extractionId: string, log: Logger): Promise<void> {
    try {
      await lifecycle.publish(extractionId);
    } catch (err) {
      log.debug({ error: errorSummary(err) }, 'completion not published');
    }
  }
}
