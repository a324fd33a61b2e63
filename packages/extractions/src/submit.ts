import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { FINAL_STATUSES } from '@xt/contract';
import type { ExtractionRow } from '@xt/db';
import type { CompletionWaiter, ExtractJobPayload } from '@xt/queue';
import { createOutageReporter, errorSummary } from '@xt/runtime';
import {
  writeExtraction,
  type CreateDeps,
  type NewExtraction,
  type Transaction,
  type KeyClaim,
} from './create.ts';
import { enqueueBudgetMs } from './answer-budget.ts';
import { createEnqueueBreaker } from './enqueue-breaker.ts';
import { ExtractionNotFound } from './errors.ts';
import { findExtraction } from './find.ts';
import { reuseAtCreate } from './reuse/at-create.ts';
import { priorityOfUnfinished } from './unfinished.ts';
import { recheckMs, waitForFinal } from './wait.ts';

/** `replayed`: the answer is for an extraction an earlier request with the same key created. */
export type SubmitOutcome =
  | { kind: 'finished'; row: ExtractionRow; replayed: boolean }
  | { kind: 'accepted'; row: ExtractionRow; retryAfterSeconds: number; replayed: boolean };

export interface SubmitContext {
  requestId: string;
  traceparent?: string | undefined;
  /** How long to wait for the final state; 0 answers as soon as the job is enqueued. */
  waitSeconds: number;
  /** When the request arrived (performance.now()): the enqueue leaves time to answer within 2 s. */
  receivedAt?: number | undefined;
  /** The client went away: stop waiting (the extraction goes on). */
  signal: AbortSignal;
  log: Logger;
  /** Claims the request's Idempotency-Key in the create's transaction, when it carried one. */
  claimKey?: ((tx: Transaction, id: string) => Promise<KeyClaim>) | undefined;
}

/**
 * The create, as a client sees it: the row committed as `pending` (create.ts), then its job,
 * then a wait for the final state as long as the client asked. The row is committed before the
 * enqueue: if Redis is unavailable the row waits for the reconciler rather than the request
 * failing and the submission being lost.
 */
export function createSubmitExtraction(
  deps: CreateDeps & {
    queue: Queue;
    waiter: CompletionWaiter;
    jobs: { attempts: number; backoffMs: number };
    logger: Logger;
  },
) {
  const enqueue = createEnqueueBreaker(deps.queue);
  const outage = createOutageReporter(
    deps.logger,
    'redis',
    'unavailable; new extractions wait for the reconciler to enqueue them',
  );

  /** Enqueues the extraction's job (a no-op when it exists) and waits as the client asked. */
  async function enqueueAndWait(
    accountId: string,
    row: ExtractionRow,
    ctx: SubmitContext,
    replayed: boolean,
    /** Fair scheduling's (docs/security.md#fair-scheduling), a replay's as a fresh create's. */
    priority: number,
  ): Promise<SubmitOutcome> {
    const id = row.id;
    // Listen before enqueueing so a fast worker cannot finish unnoticed.
    const deadline = Date.now() + ctx.waitSeconds * 1000;
    const stopListening = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stopListening.signal]);
    const firstWake =
      ctx.waitSeconds > 0
        ? deps.waiter.wait(id, Math.min(recheckMs(deps.waiter), ctx.waitSeconds * 1000), signal)
        : null;

    const payload: ExtractJobPayload = {
      extractionId: id,
      requestId: ctx.requestId,
      ...(ctx.traceparent ? { traceparent: ctx.traceparent } : {}),
    };
    const enqueued = await enqueue(
      payload,
      { ...deps.jobs, priority },
      ctx.receivedAt === undefined ? undefined : enqueueBudgetMs(ctx.receivedAt),
    );
    if (!enqueued.ok) {
      // The committed row is the record: the reconciler enqueues it once Redis answers. No
      // worker can start it before then, so waiting would only hold the client: answer now.
      stopListening.abort();
      outage.failed(enqueued.error);
      // The outage itself is one warning (above); each request only notes which row waits.
      ctx.log.info(
        { error: errorSummary(enqueued.error), extractionId: id },
        'enqueue failed; the reconciler will enqueue it',
      );
      return { kind: 'accepted', row, retryAfterSeconds: 5, replayed };
    }
    outage.recovered();

    if (firstWake === null) return { kind: 'accepted', row, retryAfterSeconds: 2, replayed };
    const latest =
      (await waitForFinal(deps, accountId, id, { deadline, firstWake, signal })) ?? row;
    return FINAL_STATUSES.has(latest.status)
      ? { kind: 'finished', row: latest, replayed }
      : { kind: 'accepted', row: latest, retryAfterSeconds: 5, replayed };
  }

  return async function submitExtraction(
    accountId: string,
    input: NewExtraction,
    ctx: SubmitContext,
  ): Promise<SubmitOutcome> {
    const written =
      (await reuseAtCreate(deps, accountId, input, ctx)) ??
      (await writeExtraction(deps, accountId, input, ctx));
    // A reused answer is written completed: there is no job to enqueue or wait for.
    if (written.created && written.row.status === 'completed')
      return { kind: 'finished', row: written.row, replayed: false };
    if (written.created)
      return enqueueAndWait(accountId, written.row, ctx, false, written.priority);

    const existing = await findExtraction(deps.db, accountId, written.id);
    if (!existing)
      throw new ExtractionNotFound('The extraction this Idempotency-Key created has been deleted.');
    if (FINAL_STATUSES.has(existing.status))
      return { kind: 'finished', row: existing, replayed: true };
    // Still running: the process that created it may have died before enqueueing, so make sure
    // it has its job (the extraction id is the job id, so this never adds a second one), with
    // the priority a create would have now: without one it would run before every other job.
    const priority = await priorityOfUnfinished(deps.db, accountId, existing.priority);
    return enqueueAndWait(accountId, existing, ctx, true, priority);
  };
}
