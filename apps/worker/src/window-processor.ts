import { DelayedError, UnrecoverableError, WaitingError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '@xt/db';
import { DEFAULT_PRICES, type PriceTable } from '@xt/model';
import type { ModelAccess } from './job/model-access.ts';
import { forJobFailure, type WindowJobPayload } from '@xt/queue';
import { errorSummary } from '@xt/runtime';
import type { SourcePreparer } from '@xt/sources';
import type { PagePreviews } from './page-previews/index.ts';
import { priceSpend } from './job/cost.ts';
import { startDeadline, withTimeout } from './job/deadline.ts';
import { asFailure, failureStep, planFailure } from './job/failure-step.ts';
import type { ExtractionRow, JobLifecycle } from './job/lifecycle.ts';
import type { WindowStore } from './job/windows/store.ts';
import { prepareWindow, storeWindow, windowClient } from './job/windows/window-step.ts';
import { extractStep } from './job/extract-step.ts';
import { databaseRetryAt, stoppedForShutdown, withJobLog } from './job/job-run.ts';

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
 * One page window of a long document (docs/scaling.md#one-large-document), as named steps:
 * look that the extraction is still being worked and the window not yet stored, read the
 * window's pages, call the model for them (looking before each call whether the extraction was
 * deleted), and store the answer once. A failed window is retried alone, by BullMQ, with the
 * extraction's attempts; when it fails for good it fails the extraction (uncharged, with what
 * every window spent), and BullMQ fails the extraction's job with it.
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
    return withJobLog(deps.logger, job, payload, { window: payload.index }, (log) =>
      handle(job, payload, log, token, stop),
    );
  };

  async function handle(
    job: Job,
    window: WindowJobPayload,
    log: Logger,
    token: string | undefined,
    stop: AbortSignal | undefined,
  ): Promise<{ status: string }> {
    try {
      return await run(job, window, log, stop);
    } catch (err) {
      if (stoppedForShutdown(stop) && token) {
        await job.moveToWait(token);
        log.info('window handed back to the queue at shutdown');
        throw new WaitingError();
      }
      if (isDatabaseUnavailable(err) && token) {
        await job.moveToDelayed(databaseRetryAt(), token);
        log.info({ error: errorSummary(err) }, 'database unavailable; window put back for later');
        throw new DelayedError();
      }
      throw forJobFailure(err);
    }
  }

  async function run(
    job: Job,
    window: WindowJobPayload,
    log: Logger,
    stop: AbortSignal | undefined,
  ): Promise<{ status: string }> {
    const id = window.extractionId;
    const found = await windows.row(id);
    if (found.kind !== 'processing') {
      log.info({ reason: found.kind }, 'window not worked: the extraction was deleted or finished');
      return { status: found.kind === 'gone' ? 'deleted' : 'duplicate' };
    }
    if ((await windows.stored(id)).indexes.includes(window.index)) {
      log.info('window already stored; duplicate delivery ignored');
      return { status: 'duplicate' };
    }
    const row = found.row;
    const deadline = startDeadline(deps.jobTimeoutMs, stop);
    try {
      const written = await work(row, window, deadline.signal);
      log.info({ written }, 'window stored');
      return { status: written ? 'stored' : 'discarded' };
    } catch (err) {
      if (stop?.aborted || isDatabaseUnavailable(err)) throw err;
      if (!(await lifecycle.exists(id))) {
        log.info('extraction deleted while its window was worked; nothing more is sent');
        return { status: 'deleted' };
      }
      return await fail(job, row, window, err, log);
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
  async function fail(
    job: Job,
    row: ExtractionRow,
    window: WindowJobPayload,
    err: unknown,
    log: Logger,
  ): Promise<never> {
    const failure = asFailure(err);
    const left = (job.opts.attempts ?? 1) - (job.attemptsMade + 1);
    const error = errorSummary(failure.cause ?? failure);
    if (planFailure(failure, left) === 'retry') {
      // What this attempt's calls spent is billed by the provider, as a one-job attempt's is
      // (recorded with its return to `pending`): added now, once, since the retry starts afresh.
      const spent =
        failure.tokens > 0
          ? priceSpend(prices, row, { tokens: failure.tokens, usage: failure.usage })
          : undefined;
      if (spent) await lifecycle.recordSpent(row.id, spent);
      log.warn(
        { code: failure.code, error, attemptsLeft: left, tokens: failure.tokens },
        'window failed; will retry',
      );
      throw failure;
    }
    const stored = await windows.stored(row.id);
    const spent = failure.usage;
    failure.tokens += stored.tokens;
    failure.usage = {
      inputTokens: spent.inputTokens + stored.usage.inputTokens,
      outputTokens: spent.outputTokens + stored.usage.outputTokens,
      cachedInputTokens: spent.cachedInputTokens + stored.usage.cachedInputTokens,
    };
    const { written } = await failureStep(lifecycle, row.id, failure, 'fail', (spend) =>
      priceSpend(prices, row, spend),
    );
    log.warn({ code: failure.code, error, written }, 'window failed; extraction failed');
    if (written) await lifecycle.publish(row.id).catch(() => undefined);
    throw new UnrecoverableError(`${failure.code}: ${failure.message}`);
  }
}
