import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { sumSpend, type ExtractionFailure } from '@xt/contract';
import { DEFAULT_PRICES, type PriceTable } from '@xt/model';
import type { ModelAccess } from './job/model-access.ts';
import type { WindowJobPayload } from '@xt/queue';
import { errorSummary } from '@xt/runtime';
import type { SourcePreparer } from '@xt/sources';
import type { PagePreviews } from './page-previews/index.ts';
import { priceSpend } from './job/cost.ts';
import { startDeadline, withTimeout } from './job/deadline.ts';
import { asFailure, attemptsLeft, failureStep, planFailure } from './job/failure-step.ts';
import type { JobEnd } from './job/job-end.ts';
import type { ExtractionRow, JobLifecycle } from './job/lifecycle.ts';
import { failingTheRow, runSteps } from './job/step-job.ts';
import type { WindowStore } from './job/windows/store.ts';
import { prepareWindow, storeWindow, windowClient } from './job/windows/window-step.ts';
import { extractStep } from './job/extract-step.ts';
import { withJobLog } from './job/job-run.ts';

export interface WindowProcessorDeps {
  lifecycle: JobLifecycle;
  windows: WindowStore;
  models: ModelAccess;
  sources: SourcePreparer;
  logger: Logger;
  jobTimeoutMs: number;
  previews?: PagePreviews | undefined;
  prices?: PriceTable | undefined;
}

/**
 * One page window of a long document (docs/scaling.md#one-large-document), run by the same
 * step runner as its extraction's job (job/step-job.ts), in one step: look that the extraction
 * is still being worked and the window not yet stored, read the window's pages, call the model
 * for them (looking before each call whether the extraction was deleted), and store the answer
 * once. A failed window is retried alone, by BullMQ, with the extraction's attempts; when it
 * fails for good it fails the extraction (uncharged, with what every window spent), and BullMQ
 * fails the extraction's job with it.
 */
export function createWindowProcessor(deps: WindowProcessorDeps) {
  const { lifecycle, windows } = deps;
  const prices = deps.prices ?? DEFAULT_PRICES;
  return function processWindow(
    job: Job,
    payload: WindowJobPayload,
    token?: string,
    stop?: AbortSignal,
  ): Promise<{ status: string }> {
    const id = payload.extractionId;
    return withJobLog(deps.logger, job, payload, { window: payload.index }, (log) =>
      runSteps<'window', WindowJobPayload>(
        {
          job,
          token,
          stop,
          what: 'window',
          publish: () => lifecycle.publish(id),
          data: payload,
          step: 'window',
          steps: { window: (window, log) => run(job, window, log, stop) },
        },
        log,
      ),
    );
  };

  async function run(
    job: Job,
    window: WindowJobPayload,
    log: Logger,
    stop: AbortSignal | undefined,
  ): Promise<JobEnd> {
    const id = window.extractionId;
    const found = await windows.row(id);
    if (found.kind !== 'processing')
      return {
        end: 'finished',
        status: found.kind === 'gone' ? 'deleted' : 'duplicate',
        message: 'window not worked: the extraction was deleted or finished',
        fields: { reason: found.kind },
      };
    if ((await windows.stored(id)).indexes.includes(window.index))
      return {
        end: 'finished',
        status: 'duplicate',
        message: 'window already stored; duplicate delivery ignored',
      };
    const row = found.row;
    const deadline = startDeadline(deps.jobTimeoutMs, stop);
    try {
      return await failingTheRow(
        stop,
        async (): Promise<JobEnd> => {
          const written = await work(row, window, deadline.signal);
          return {
            end: 'finished',
            status: written ? 'stored' : 'discarded',
            message: 'window stored',
            fields: { written },
          };
        },
        async (err) => {
          if (!(await lifecycle.exists(id)))
            return {
              end: 'finished',
              status: 'deleted',
              message: 'extraction deleted while its window was worked; nothing more is sent',
            };
          return fail(job, row, asFailure(err));
        },
      );
    } finally {
      deadline.clear();
    }
  }

  /** prepare the window's pages → the model → store, within the window's deadline. */
  async function work(
    row: ExtractionRow,
    window: WindowJobPayload,
    signal: AbortSignal,
  ): Promise<boolean> {
    const model = await deps.models.forModel(row.model, signal);
    const source = await withTimeout(
      prepareWindow(deps.sources, windows, row, window, signal, {
        images: model.capabilities.images,
      }),
      signal,
    );
    const pages = window.lastPage - window.firstPage + 1;
    const client = windowClient(
      model.client,
      () => lifecycle.exists(row.id),
      pages / window.pagesTotal,
    );
    const result = await withTimeout(
      extractStep({ ...model, client }, row, source, signal, {
        window: { index: window.index, count: window.count },
      }),
      signal,
    );
    const written = await storeWindow(deps, row.id, row, window, source, result);
    const stored = await windows.stored(row.id);
    await lifecycle
      .recordProgress(row.id, { pagesDone: stored.pages, pagesTotal: window.pagesTotal })
      .catch(() => false);
    return written;
  }

  /**
   * A failed attempt of the window: retried alone while its attempts last and the failure
   * allows it, its spend added to the extraction's; otherwise the extraction fails, uncharged,
   * with what its windows and this attempt spent (earlier failed attempts' are on the row).
   */
  async function fail(job: Job, row: ExtractionRow, failure: ExtractionFailure): Promise<JobEnd> {
    const left = attemptsLeft({
      jobAttempts: job.opts.attempts ?? 1,
      attemptsMade: job.attemptsMade,
    });
    const error = errorSummary(failure.cause ?? failure);
    if (planFailure(failure, left) === 'retry') {
      // What this attempt's calls spent is billed by the provider, as a one-job attempt's is
      // (recorded with its return to `pending`): added now, once, since the retry starts afresh.
      const spent =
        failure.tokens > 0
          ? priceSpend(prices, row, { tokens: failure.tokens, usage: failure.usage })
          : undefined;
      if (spent) await lifecycle.recordSpent(row.id, spent);
      return {
        end: 'retry',
        failure,
        level: 'warn',
        message: 'window failed; will retry',
        fields: { error, attemptsLeft: left, tokens: failure.tokens },
      };
    }
    const stored = await windows.stored(row.id);
    // The row's final spend: this attempt's and every stored window's.
    Object.assign(failure, sumSpend([failure, stored]));
    const { written } = await failureStep(lifecycle, row.id, failure, 'fail', (spend) =>
      priceSpend(prices, row, spend),
    );
    return {
      end: 'failed',
      failure,
      written,
      message: 'window failed; extraction failed',
      fields: { error },
    };
  }
}
