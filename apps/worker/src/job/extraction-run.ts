import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { ExtractionFailure, type ModelUsage, type PreparedSource } from '@xt/contract';
import { countPages, type ExtractResult, type PriceTable } from '@xt/model';
import type { ExtractJobStep, ExtractJobPayload } from '@xt/queue';
import { errorSummary, type OutageReporter } from '@xt/runtime';
import type { PreparationStore, SourcePreparer } from '@xt/sources';
import type { BatchRunner } from '../batch/runner.ts';
import type { StageTimer } from '../ops/stages.ts';
import type { PagePreviews } from '../page-previews/index.ts';
import { claimStep } from './claim-step.ts';
import { priceSpend } from './cost.ts';
import { startDeadline, withTimeout } from './deadline.ts';
import { extractStep } from './extract-step.ts';
import {
  asFailure,
  attemptsLeft,
  exhaustedFailure,
  failureStep,
  planFailure,
} from './failure-step.ts';
import { finishStep } from './finish-step.ts';
import { completed, type JobEnd } from './job-end.ts';
import type { ExtractionRow, JobLifecycle } from './lifecycle.ts';
import type { ModelAccess } from './model-access.ts';
import { deletedWhilePreparing, prepareStep, recordFound } from './prepare-step.ts';
import { progressReporter, type ProgressReporter } from './progress-step.ts';
import { reuseEvidenceStep } from './reuse-evidence-step.ts';
import { reuseContent, reuseStep, type JobReuse, type ReuseStepOutcome } from './reuse-step.ts';
import { failingTheRow, type StepResult } from './step-job.ts';
import { planWindows } from './windows/plan.ts';
import type { splitRun } from './split/split-run.ts';
import { splitStep, type SplitOutcome } from './windows/split-step.ts';
import type { WindowStore } from './windows/store.ts';

export interface ExtractionRunDeps {
  lifecycle: JobLifecycle;
  models: ModelAccess;
  sources: SourcePreparer;
  jobTimeoutMs: number;
  maxAttempts: number;
  modelConfigured: boolean;
  previews?: PagePreviews | undefined;
  reuse?: JobReuse | undefined;
  preparations?: ((row: ExtractionRow) => PreparationStore | undefined) | undefined;
  batch?: BatchRunner | undefined;
  windows?: { store: WindowStore; splitPages: number } | undefined;
  /** A split bundle's `split` step (job/split/split-run.ts). */
  split: ReturnType<typeof splitRun>['split'];
  prices: PriceTable;
  time: StageTimer;
  /** One warning while the model provider fails every attempt alike, not one per attempt. */
  providerOutage: OutageReporter;
}

/**
 * The extraction job's `extract` step: claim the row, then, within the job's deadline, prepare
 * the source, reuse an earlier answer or call the model, and finish (ground, preview, complete);
 * or, for a long document, split it into page windows and move on to `merge-windows`. What
 * fails the claimed row is recorded as its failure (retried while attempts last).
 */
export function extractionRun(deps: ExtractionRunDeps) {
  const { lifecycle, time, prices } = deps;

  return async function extract(
    job: Job,
    payload: ExtractJobPayload,
    log: Logger,
    stop: AbortSignal | undefined,
  ): Promise<StepResult<ExtractJobStep, ExtractJobPayload>> {
    const claimed = await claimStep(lifecycle, payload.extractionId, deps.maxAttempts);
    if (claimed.next === 'skip')
      return {
        end: 'finished',
        status: claimed.status,
        outcome: claimed.reason,
        ...(claimed.reason === 'deleted'
          ? { message: 'extraction was deleted; nothing to do' }
          : {
              message: 'extraction already finished; duplicate delivery ignored',
              fields: { status: claimed.status },
            }),
      };
    const row = claimed.row;
    if (claimed.next === 'exhausted') return failExhausted(row);
    const deadline = startDeadline(deps.jobTimeoutMs, stop);
    try {
      const stored = row.split;
      return await failingTheRow(
        stop,
        () =>
          stored ? deps.split(row, stored, log, deadline.signal) : work(row, log, deadline.signal),
        (err) => failedAttempt(job, row, asFailure(err)),
      );
    } finally {
      deadline.clear();
    }
  };

  /** prepare → reuse → model → finish for a claimed row; or split → `merge-windows`. */
  async function work(
    claimed: ExtractionRow,
    log: Logger,
    signal: AbortSignal,
  ): Promise<StepResult<ExtractJobStep, ExtractJobPayload>> {
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
    // From before the split: a document is converted and read there when short enough.
    const preparing = performance.now();
    const split = windows
      ? await withTimeout(
          splitStep(
            deps.sources,
            (id, pdfs, notesPages) => windows.store.keepPdfs(id, pdfs, notesPages),
            claimed,
            windows.splitPages,
            { signal, preparations, images: model.capabilities.images },
          ),
          signal,
        )
      : undefined;
    if (split?.next === 'windows') return withTimeout(intoWindows(claimed, split, log), signal);
    const source = await withTimeout(
      split?.next === 'whole'
        ? split.prepare()
        : prepareStep(deps.sources, claimed, signal, preparations, {
            images: model.capabilities.images,
          }),
      signal,
    );
    if (await deletedWhilePreparing(lifecycle, claimed.id, performance.now() - preparing))
      return { end: 'finished', status: 'deleted', outcome: 'deleted' };
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
      if (reused.next === 'done') return completedFromReuse(reused);
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
    deps.providerOutage.recovered();
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
    return completed(written, 'extraction completed', {
      tokens: result.totalTokens,
      calls: result.calls,
    });
  }

  /**
   * A document long enough for page windows: they are cut and the job moves on to
   * `merge-windows`. A URL source first has what one job records after fetching recorded now
   * (the kind and format found, the reuse key), since no job prepares the whole of it; an
   * earlier answer for the same fetched bytes completes it instead (job/reuse-step.ts), with no
   * window cut.
   */
  async function intoWindows(
    claimed: ExtractionRow,
    split: Extract<SplitOutcome, { next: 'windows' }>,
    log: Logger,
  ): Promise<StepResult<ExtractJobStep, ExtractJobPayload>> {
    const found = split.found;
    if (found) {
      const row = await recordFound(lifecycle, claimed, {
        found: { type: found.kind, format: found.format },
      });
      const reused =
        deps.reuse &&
        (await reuseContent(deps.reuse, row, {
          kind: 'fetched',
          sha256: found.sha256,
          contentType: found.contentType,
        }));
      if (reused?.next === 'done') return completedFromReuse(reused);
    }
    await split.cut();
    const { pagesTotal, splitPages } = split.split;
    log.info(
      { pages: pagesTotal, windows: planWindows(pagesTotal, splitPages).length },
      'document split into page windows',
    );
    return { next: 'merge-windows', data: { windows: split.split } };
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
  async function failedAttempt(
    job: Job,
    row: ExtractionRow,
    failure: ExtractionFailure,
  ): Promise<JobEnd> {
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
    if (plan === 'fail')
      return { end: 'failed', failure, written, message: 'extraction failed', fields: { error } };
    const providerDown = failure.code === 'MODEL_UNAVAILABLE';
    if (providerDown) deps.providerOutage.failed(failure.cause ?? failure);
    return {
      end: 'retry',
      failure,
      level: providerDown ? 'info' : 'warn',
      message: 'attempt failed; will retry',
      fields: { error, attemptsLeft: left },
    };
  }

  /** A row claimed more often than attempts allow fails now, uncharged (claimStep). */
  async function failExhausted(row: ExtractionRow): Promise<JobEnd> {
    const failure = exhaustedFailure(row.attempts);
    const { written } = await time('store', row.sourceType, () =>
      failureStep(lifecycle, row.id, failure, 'fail'),
    );
    return {
      end: 'failed',
      failure,
      written,
      message: 'extraction failed: attempts used up',
      fields: { claims: row.attempts },
    };
  }
}

/** Completed from an earlier answer (or found no longer processing meanwhile). */
function completedFromReuse(reused: Extract<ReuseStepOutcome, { next: 'done' }>): JobEnd {
  return completed(reused.outcome === 'completed', 'extraction completed from reuse', {
    reusedFrom: reused.originalId,
  });
}
