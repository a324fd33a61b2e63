import { DelayedError, UnrecoverableError, WaitingError, type Job } from 'bullmq';
import type { RedisConnection } from '@xt/queue';
import type { Logger } from 'pino';
import { ExtractionFailure, type SourceType } from '@xt/contract';
import { isDatabaseUnavailable, type Db } from '@xt/db';
import { extract, type ModelClient } from '@xt/model';
import { forJobFailure, publishCompletion, type ExtractJobPayload } from '@xt/queue';
import {
  createOutageReporter,
  errorSummary,
  parseTraceparent,
  withLogContext,
  type LogContext,
} from '@xt/runtime';
import type { SourcePreparer } from '@xt/sources';
import { untimed } from './ops/stages.ts';
import type { WorkerMetrics } from './ops/worker-metrics.ts';
import { groundOutput } from '@xt/grounding';
import type { PagePreviews } from './page-previews/index.ts';
import { claim, complete, exists, recordFailure, release } from '@xt/extractions';

export interface ProcessorDeps {
  db: Db;
  redis: RedisConnection;
  prefix: string;
  model: ModelClient;
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
}

/** The reason the worker aborts its running jobs with when its shutdown grace has run out. */
export const SHUTDOWN_REASON = 'worker shutting down';

/** A preparation at least this long is followed by a look whether the row was deleted meanwhile. */
const RECHECK_AFTER_PREPARING_MS = 50;

/** While PostgreSQL is away a job is put back this long (plus jitter) without using an attempt. */
const DATABASE_RETRY_MS = 3_000;

function asFailure(err: unknown): ExtractionFailure {
  if (err instanceof ExtractionFailure) return err;
  return new ExtractionFailure('INTERNAL', 'The extraction failed unexpectedly.', {
    retryable: true,
    cause: err,
  });
}

/**
 * The extraction job handler: claim the row, prepare the source, call the model, record the
 * outcome. Retryable failures return the row to `pending` and let BullMQ back off and retry;
 * the rest fail it at once (UnrecoverableError).
 *
 * Two interruptions use no attempt: PostgreSQL being unreachable (the job is put back for a few
 * seconds, again and again until it answers, since nothing can be recorded meanwhile), and the
 * worker shutting down (the job is handed back to the front of the queue for another worker).
 */
export function createProcessor(deps: ProcessorDeps) {
  const metrics = deps.metrics;
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

  async function processOnce(
    job: Job,
    { extractionId, requestId, traceparent }: ExtractJobPayload,
    token?: string,
    stop?: AbortSignal,
  ): Promise<{ status: string }> {
    const traceId = parseTraceparent(traceparent)?.traceId;
    const fields: LogContext = {
      extractionId,
      attempt: job.attemptsMade + 1,
      ...(requestId ? { requestId } : {}),
      ...(traceId ? { traceId } : {}),
      ...(job.id ? { jobId: job.id } : {}),
    };
    const log = deps.logger.child(fields);
    // Lines written by shared code during this job (sources, browser) carry the same fields.
    return withLogContext(fields, () => handle(job, extractionId, log, token, stop));
  }

  async function handle(
    job: Job,
    extractionId: string,
    log: Logger,
    token: string | undefined,
    stop: AbortSignal | undefined,
  ): Promise<{ status: string }> {
    try {
      return await run(job, extractionId, log, stop);
    } catch (err) {
      if (stop?.aborted && stop.reason === SHUTDOWN_REASON && token) {
        await release(deps.db, extractionId).catch(() => false);
        await job.moveToWait(token);
        metrics?.requeued('shutdown');
        log.info('handed back to the queue at shutdown');
        throw new WaitingError();
      }
      if (isDatabaseUnavailable(err) && token) {
        await job.moveToDelayed(Date.now() + DATABASE_RETRY_MS * (1 + Math.random()), token);
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
    extractionId: string,
    log: Logger,
    stop: AbortSignal | undefined,
  ): Promise<{ status: string }> {
    const claimed = await claim(deps.db, extractionId);
    if (claimed.kind === 'gone') {
      log.info('extraction was deleted; nothing to do');
      metrics?.finished('deleted');
      return { status: 'deleted' };
    }
    if (claimed.kind === 'final') {
      log.info(
        { status: claimed.row.status },
        'extraction already finished; duplicate delivery ignored',
      );
      metrics?.finished('duplicate');
      return { status: claimed.row.status };
    }
    const row = claimed.row;
    if (row.attempts > deps.maxAttempts)
      return failExhausted(row.id, row.attempts, row.sourceType, log);

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('job timeout')), deps.jobTimeoutMs);
    const signal = stop ? AbortSignal.any([controller.signal, stop]) : controller.signal;
    try {
      // Not retryable: no attempt can succeed until the worker is configured.
      if (!deps.modelConfigured)
        throw new ExtractionFailure(
          'MODEL_UNAVAILABLE',
          'No model provider is configured on the worker: set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible server).',
        );
      const citations = row.citationsRequested;
      const prepareOpts = { model: row.model, signal, citations };
      const preparing = performance.now();
      const source = await withTimeout(
        row.file
          ? deps.sources.prepareUpload(
              row.sourceType,
              { ref: row.fileRef, contentType: row.file.contentType },
              prepareOpts,
            )
          : deps.sources.prepare(row.sourceType, row.source, prepareOpts),
        signal,
      );
      // Deleted while its source was being prepared: spend no model tokens on it. Not asked
      // after a preparation of moments (typed text): a deletion in that window costs one model
      // call, whose result the final conditional update discards, and asking cost a statement
      // per extraction (docs/performance.md).
      const prepared = performance.now() - preparing;
      if (prepared >= RECHECK_AFTER_PREPARING_MS && !(await exists(deps.db, extractionId))) {
        metrics?.finished('deleted');
        return { status: 'deleted' };
      }
      const type = row.sourceType;
      const result = await withTimeout(
        time('model', type, () =>
          extract({
            client: deps.model,
            model: row.model,
            structure: row.schemaStructure,
            source,
            instruction: row.instruction ?? undefined,
            signal,
            citations,
          }),
        ),
        signal,
      );
      providerOutage.recovered();
      const grounded = groundOutput(result, source, citations);
      const pageImages = await deps.previews?.(type, source, grounded.citations);
      const written = await time('store', type, () =>
        complete(deps.db, extractionId, result.output, result.totalTokens, {
          ...grounded,
          pageImages,
        }),
      );
      metrics?.finished(written ? 'completed' : 'discarded');
      log.info(
        { tokens: result.totalTokens, calls: result.calls, written },
        'extraction completed',
      );
      if (written) await notify(extractionId, log);
      return { status: written ? 'completed' : 'discarded' };
    } catch (err) {
      // Handed back or put back by the caller: nothing is recorded as a failure.
      if (stop?.aborted || isDatabaseUnavailable(err)) throw err;
      const failure = asFailure(err);
      const attemptsLeft = Math.min(
        (job.opts.attempts ?? 1) - (job.attemptsMade + 1),
        deps.maxAttempts - row.attempts,
      );
      if (failure.retryable && attemptsLeft > 0) {
        await time('store', row.sourceType, () =>
          recordFailure(deps.db, extractionId, failure, 'pending'),
        );
        metrics?.retry(failure.code);
        const providerDown = failure.code === 'MODEL_UNAVAILABLE';
        if (providerDown) providerOutage.failed(failure.cause ?? failure);
        log[providerDown ? 'info' : 'warn'](
          { code: failure.code, error: errorSummary(failure.cause ?? failure), attemptsLeft },
          'attempt failed; will retry',
        );
        throw failure;
      }
      const written = await time('store', row.sourceType, () =>
        recordFailure(deps.db, extractionId, failure, 'failed'),
      );
      metrics?.finished('failed', failure.code);
      log.warn(
        { code: failure.code, error: errorSummary(failure.cause ?? failure), written },
        'extraction failed',
      );
      if (written) await notify(extractionId, log);
      throw new UnrecoverableError(`${failure.code}: ${failure.message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A row claimed more often than attempts allow was started and never finished each time: its
   * worker died or stalled on it (a source that freezes whatever reads it, say). It fails now,
   * uncharged, instead of being handed from worker to worker for ever.
   */
  async function failExhausted(
    extractionId: string,
    claims: number,
    type: SourceType,
    log: Logger,
  ): Promise<never> {
    const failure = new ExtractionFailure(
      'TIMEOUT',
      `The extraction was started ${claims - 1} times and never finished (its worker stopped or stalled each time); it is not tried again.`,
    );
    const written = await time('store', type, () =>
      recordFailure(
        deps.db,
        extractionId,
        { code: failure.code, message: failure.message, tokens: 0 },
        'failed',
      ),
    );
    metrics?.finished('failed', failure.code);
    log.warn({ code: failure.code, claims, written }, 'extraction failed: attempts used up');
    if (written) await notify(extractionId, log);
    throw new UnrecoverableError(`${failure.code}: ${failure.message}`);
  }

  /** Wakes waiting API requests; when Redis cannot take it, they find out by polling. */
  async function notify(extractionId: string, log: Logger): Promise<void> {
    try {
      await publishCompletion(deps.redis, deps.prefix, extractionId);
    } catch (err) {
      log.debug({ error: errorSummary(err) }, 'completion not published');
    }
  }
}

/** Races work against the job deadline; the work itself is told through the same signal. */
function withTimeout<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(timeoutFailure());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timeoutFailure());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function timeoutFailure(): ExtractionFailure {
  return new ExtractionFailure('TIMEOUT', 'The extraction took longer than the job time limit.', {
    retryable: true,
  });
}
