import { DelayedError, WaitingChildrenError, WaitingError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '@xt/db';
import { forJobFailure } from '@xt/queue';
import { errorSummary } from '@xt/runtime';
import { BatchWait } from '../batch/runner.ts';
import { ChildrenWait } from './split/children-wait.ts';
import type { WorkerMetrics } from '../ops/worker-metrics.ts';
import { databaseRetryAt, stoppedForShutdown } from './job-run.ts';

/**
 * Why a run stopped short of an outcome of its own. None is a failure of the extraction: none
 * is recorded on its row as one, and none uses an attempt.
 */
export type Interruption =
  /** Its page windows are queued and it waits for them (BullMQ's waiting-children). */
  | { kind: 'windows' }
  /** The worker's shutdown grace ran out: handed back to the front of the queue. */
  | { kind: 'shutdown' }
  /** A batch extraction waits for the provider until `untilMs`, holding no worker slot. */
  | { kind: 'batch'; untilMs: number }
  /** A split bundle waits for its documents' extractions until `untilMs`, holding no slot. */
  | { kind: 'children'; untilMs: number }
  /** PostgreSQL is unreachable, so nothing can be recorded: put back for a few seconds. */
  | { kind: 'database' }
  /** Aborted for a reason other than shutdown: BullMQ fails it as thrown; the row is left. */
  | { kind: 'aborted' };

/**
 * The interruption `err` is, or none (a failure of the run). Checked in this order: a run
 * stopped for shutdown is handed back whatever it was doing when stopped.
 */
export function interruptionOf(
  err: unknown,
  stop: AbortSignal | undefined,
): Interruption | undefined {
  if (err instanceof WaitingChildrenError) return { kind: 'windows' };
  if (stoppedForShutdown(stop)) return { kind: 'shutdown' };
  if (err instanceof BatchWait) return { kind: 'batch', untilMs: err.untilMs };
  if (err instanceof ChildrenWait) return { kind: 'children', untilMs: err.untilMs };
  if (isDatabaseUnavailable(err)) return { kind: 'database' };
  if (stop?.aborted) return { kind: 'aborted' };
  return undefined;
}

/** Which job was interrupted: its log lines say so. */
export type InterruptedJob = 'extraction' | 'window';

const HANDED_BACK: Record<InterruptedJob, string> = {
  extraction: 'handed back to the queue at shutdown',
  window: 'window handed back to the queue at shutdown',
};
const PUT_BACK: Record<InterruptedJob, string> = {
  extraction: 'database unavailable; job put back for later',
  window: 'database unavailable; window put back for later',
};

export interface InterruptionContext {
  job: Pick<Job, 'moveToWait' | 'moveToDelayed'>;
  /** The job's lock; without it (a run outside a worker) nothing can be moved. */
  token: string | undefined;
  log: Logger;
  what: InterruptedJob;
  metrics?: Pick<WorkerMetrics, 'requeued'> | undefined;
  /** Gives the row's claim back at shutdown, so the next run's claim is not counted twice. */
  release?: (() => Promise<unknown>) | undefined;
  /** Keeps the row `processing` while its batch is at the provider, the claim given back. */
  pause?: (() => Promise<unknown>) | undefined;
}

/**
 * The one place an interruption becomes what BullMQ is told: each kind moves the job (back to
 * the queue, delayed, or left waiting for its children) and throws BullMQ's matching error.
 */
export async function handleInterruption(
  interruption: Interruption,
  err: unknown,
  ctx: InterruptionContext,
): Promise<never> {
  const { job, token, log } = ctx;
  if (interruption.kind === 'windows') throw err;
  if (!token || interruption.kind === 'aborted') throw forJobFailure(err);
  switch (interruption.kind) {
    case 'shutdown':
      await ctx.release?.().catch(() => false);
      await job.moveToWait(token);
      ctx.metrics?.requeued('shutdown');
      log.info(HANDED_BACK[ctx.what]);
      throw new WaitingError();
    case 'batch':
      // Waiting for the provider holds no worker slot: the job comes back when it is due.
      await ctx.pause?.();
      await job.moveToDelayed(interruption.untilMs, token);
      log.debug({ until: new Date(interruption.untilMs).toISOString() }, 'waiting for the batch');
      throw new DelayedError();
    case 'children':
      // The row stays `processing`; its `await-children` step claims nothing, so no attempt.
      await job.moveToDelayed(interruption.untilMs, token);
      throw new DelayedError();
    case 'database':
      await job.moveToDelayed(databaseRetryAt(), token);
      ctx.metrics?.requeued('database_unavailable');
      // Not a warning per job: the outage itself is warned about once (postgres connection lost).
      log.info({ error: errorSummary(err) }, PUT_BACK[ctx.what]);
      throw new DelayedError();
  }
}
