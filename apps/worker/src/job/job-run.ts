import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { parseTraceparent, withLogContext, type LogContext } from '@xt/runtime';

/** The reason the worker aborts its running jobs with when its shutdown grace has run out. */
export const SHUTDOWN_REASON = 'worker shutting down';

/** While PostgreSQL is away a job is put back this long (plus jitter) without using an attempt. */
const DATABASE_RETRY_MS = 3_000;

/** When a job put back while PostgreSQL is away comes round again. */
export function databaseRetryAt(now = Date.now()): number {
  return now + DATABASE_RETRY_MS * (1 + Math.random());
}

/** Whether a job's run was aborted because the worker is shutting down (hand it back). */
export function stoppedForShutdown(stop: AbortSignal | undefined): boolean {
  return stop?.aborted === true && stop.reason === SHUTDOWN_REASON;
}

/**
 * Runs one job's handling with its log fields: on the worker's own lines through `log`, and on
 * lines written by shared code meanwhile (sources, browser) through the log context. An
 * extraction's job and its page windows name themselves alike, so one grep finds both.
 */
export function withJobLog<T>(
  logger: Logger,
  job: Job,
  payload: {
    extractionId: string;
    requestId?: string | undefined;
    traceparent?: string | undefined;
  },
  extra: LogContext,
  handle: (log: Logger) => Promise<T>,
): Promise<T> {
  const traceId = parseTraceparent(payload.traceparent)?.traceId;
  const fields: LogContext = {
    extractionId: payload.extractionId,
    ...extra,
    attempt: job.attemptsMade + 1,
    ...(payload.requestId ? { requestId: payload.requestId } : {}),
    ...(traceId ? { traceId } : {}),
    ...(job.id ? { jobId: job.id } : {}),
  };
  const log = logger.child(fields);
  return withLogContext(fields, () => handle(log));
}
