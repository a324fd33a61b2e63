import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import type { ExtractionFailure } from '@xt/contract';
import { errorSummary } from '@xt/runtime';
import type { ExtractionOutcome, WorkerMetrics } from '../ops/worker-metrics.ts';

type LogFields = Record<string, unknown>;

/**
 * How a run ends, as a value: the steps say what happened and `endJob` alone turns it into
 * the metric, the log line, the "finished" message and what BullMQ is answered.
 */
export type JobEnd =
  /** Over without a failure: completed, discarded, or nothing to do; `status` is the job's answer. */
  | {
      end: 'finished';
      status: string;
      /** counted in the worker's outcomes; none for a page window */
      outcome?: ExtractionOutcome | undefined;
      /** tell waiting requests (the row was written final by this run) */
      notify?: boolean | undefined;
      message?: string | undefined;
      fields?: LogFields | undefined;
    }
  /** Failed for good; `written` is false when the row had left `processing` meanwhile. */
  | {
      end: 'failed';
      failure: ExtractionFailure;
      written: boolean;
      message: string;
      fields?: LogFields | undefined;
    }
  /** This attempt failed and BullMQ retries it (the row is back to `pending`, or a window's). */
  | {
      end: 'retry';
      failure: ExtractionFailure;
      message: string;
      level: 'info' | 'warn';
      fields?: LogFields | undefined;
    };

/** Completed by this run's answer, or discarded when the row had left `processing` meanwhile. */
export function completed(written: boolean, message: string, fields: LogFields): JobEnd {
  const outcome = written ? 'completed' : 'discarded';
  return {
    end: 'finished',
    status: outcome,
    outcome,
    notify: written,
    message,
    fields: { ...fields, written },
  };
}

export interface EndContext {
  log: Logger;
  metrics?: Pick<WorkerMetrics, 'finished' | 'retry'> | undefined;
  /** Wakes API requests waiting on the extraction. */
  publish: () => Promise<void>;
}

/** The closing lines of every run: metrics, log, notify, and the status or the error BullMQ gets. */
export async function endJob(end: JobEnd, ctx: EndContext): Promise<{ status: string }> {
  const { log, metrics } = ctx;
  switch (end.end) {
    case 'finished':
      if (end.outcome) metrics?.finished(end.outcome);
      if (end.message) log.info(end.fields ?? {}, end.message);
      if (end.notify) await notify(ctx);
      return { status: end.status };
    case 'retry':
      metrics?.retry(end.failure.code);
      log[end.level]({ code: end.failure.code, ...end.fields }, end.message);
      throw end.failure;
    case 'failed':
      metrics?.finished('failed', end.failure.code);
      log.warn({ code: end.failure.code, ...end.fields, written: end.written }, end.message);
      if (end.written) await notify(ctx);
      throw new UnrecoverableError(`${end.failure.code}: ${end.failure.message}`);
  }
}

/** When Redis cannot take the message, waiting requests find out by polling. */
async function notify(ctx: EndContext): Promise<void> {
  try {
    await ctx.publish();
  } catch (err) {
    ctx.log.debug({ error: errorSummary(err) }, 'completion not published');
  }
}
