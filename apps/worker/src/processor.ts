import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { DEFAULT_PRICES, type PriceTable } from '@xt/model';
import { extractJobStep, type ExtractJobPayload, type ExtractJobStep } from '@xt/queue';
import { createOutageReporter } from '@xt/runtime';
import type { PreparationStore, SourcePreparer } from '@xt/sources';
import type { BatchRunner } from './batch/runner.ts';
import { extractionRun } from './job/extraction-run.ts';
import { withJobLog } from './job/job-run.ts';
import type { ExtractionRow, JobLifecycle } from './job/lifecycle.ts';
import type { ModelAccess } from './job/model-access.ts';
import type { JobReuse } from './job/reuse-step.ts';
import { runSteps } from './job/step-job.ts';
import { splitRun, type SplitRunDeps } from './job/split/split-run.ts';
import { mergeRun } from './job/windows/merge-run.ts';
import type { WindowStore } from './job/windows/store.ts';
import { untimed } from './ops/stages.ts';
import type { WorkerMetrics } from './ops/worker-metrics.ts';
import type { PagePreviews } from './page-previews/index.ts';

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
  /**
   * Bundles split into their documents (docs/split.md): their children's rows and jobs, and
   * how many pages a classification call reads (SPLIT_CLASSIFY_PAGES); a split fails when absent.
   */
  bundles?: SplitRunDeps['bundles'];
}

/**
 * The extraction job handler, as steps kept in the job's data (job/step-job.ts):
 *   `extract` (job/extraction-run.ts): claim → prepare → reuse or model → finish, or a long
 *     document split into page windows, moving on to
 *   `merge-windows` (job/windows/merge-run.ts): wait for the windows, then merge and finish;
 *   for a bundle split into its documents (docs/split.md), `extract` splits it once claimed
 *   (job/split/split-run.ts) and moves on to `await-children`: wait for the documents'
 *   extractions, holding no slot, then complete the bundle.
 * Each step answers how the run ends (job/job-end.ts: completed, failed, retried) or throws an
 * interruption (job/interruption.ts: waiting for windows, shutdown, a batch wait, PostgreSQL
 * unreachable), each handled in one place. Retryable failures return the row to `pending` and
 * BullMQ backs off and retries; the rest fail it at once. No interruption uses an attempt.
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
  const bundle = splitRun({ ...deps, prices });
  const extract = extractionRun({ ...deps, prices, time, providerOutage, split: bundle.split });
  const mergeWindows = mergeRun({ ...deps, prices, time });

  /** Without page windows configured, a job that was split is worked afresh as one job. */
  const stepOf = (payload: ExtractJobPayload): ExtractJobStep => {
    const step = extractJobStep(payload);
    return step === 'merge-windows' && !deps.windows ? 'extract' : step;
  };

  return async function processExtraction(
    job: Job,
    payload: ExtractJobPayload,
    token?: string,
    stop?: AbortSignal,
  ): Promise<{ status: string }> {
    metrics?.picked(job);
    const id = payload.extractionId;
    const steps = (log: Logger) =>
      runSteps<ExtractJobStep, ExtractJobPayload>(
        {
          job,
          token,
          stop,
          what: 'extraction',
          metrics,
          release: () => lifecycle.release(id),
          pause: () => lifecycle.pause(id),
          publish: () => lifecycle.publish(id),
          data: payload,
          step: stepOf(payload),
          steps: {
            extract: (data, log) => extract(job, data, log, stop),
            'merge-windows': (data) => mergeWindows(job, token, data),
            'await-children': (data) => bundle.awaitChildren(data),
          },
        },
        log,
      );
    const run = () => withJobLog(deps.logger, job, payload, {}, steps);
    return metrics ? metrics.running(run) : run();
  };
}
