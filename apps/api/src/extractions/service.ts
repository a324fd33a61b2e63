import { checkActiveExtractions } from '../http/account-bounds.ts';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Logger } from 'pino';
import pTimeout from 'p-timeout';
import { FINAL_STATUSES, isFailureCode } from '@xt/contract';
import { failureHttpStatus } from '../http/failure-status.ts';
import { HttpError, notFound, validationError } from '../http/errors.ts';
import type { ListQuery } from '../http/list-query.ts';
import type { BlobStore, DbExecutor } from '@xt/blob-store';
import {
  extractions,
  isNotNullViolation,
  preparedPerDb,
  schemas,
  type Db,
  type ExtractionRow,
} from '@xt/db';
import { enqueueExtraction } from '@xt/extractions';
import type { CompletionWaiter, ExtractJobPayload } from '@xt/queue';
import { createOutageReporter, errorSummary, type OutageReporter } from '@xt/runtime';
import type { ApiConfig } from '../config.ts';
import { listExtractions } from './list.ts';
import type { ExtractionInput } from './body.ts';
import type { IdempotencyKeys, IdempotencyRequest, Tx } from '../idempotency/store.ts';

/** Between two looks at the database while waiting: covers a lost pub/sub wake-up. */
const RECHECK_MS = 5_000;
/** The same while the completion subscriber is disconnected and no wake-up can arrive. */
const OFFLINE_RECHECK_MS = 1_000;
/**
 * The longest an enqueue may take before the create is answered anyway. Redis commands time out
 * on their own; this also covers a queue whose connection has not come up since start-up.
 */
const ENQUEUE_DEADLINE_MS = 1_500;
/**
 * After an enqueue failed or timed out, creates skip Redis for this long (a breaker): while Redis
 * hangs only the first create waits out the deadline, the rest answer at once and the
 * reconciler enqueues their rows when Redis is back.
 */
const ENQUEUE_SKIP_AFTER_FAILURE_MS = 5_000;

/** The record reads every poll and every waiting create makes (see preparedPerDb). */
const extractionById = preparedPerDb('extraction_by_id', (db, name) =>
  db
    .select()
    .from(extractions)
    .where(
      and(
        eq(extractions.accountId, sql.placeholder('accountId')),
        eq(extractions.id, sql.placeholder('id')),
      ),
    )
    .prepare(name),
);

/** `replayed`: the answer is for an extraction an earlier request with the same key created. */
export type CreateOutcome =
  | { kind: 'finished'; row: ExtractionRow; replayed: boolean }
  | { kind: 'accepted'; row: ExtractionRow; retryAfterSeconds: number; replayed: boolean };

interface CreateContext {
  requestId: string;
  traceparent?: string;
  waitSeconds: number;
  signal: AbortSignal;
  log: Logger;
}

export class ExtractionService {
  private readonly db: Db;
  private readonly queue: Queue;
  private readonly waiter: CompletionWaiter;
  private readonly config: ApiConfig;
  private readonly keys: IdempotencyKeys;
  private readonly outage: OutageReporter;
  /** Until when creates leave enqueueing to the reconciler (ENQUEUE_SKIP_AFTER_FAILURE_MS). */
  private enqueueSkipUntil = 0;
  private readonly store: BlobStore;
  /**
   * Turns for copying an upload into the database. Without them, many large uploads at once
   * hold every pooled connection for seconds each, and requests waiting for one (uploads or
   * not) are answered 503 after the pool's short wait.
   */
  private readonly storeSlots: LimitFunction;

  constructor(deps: {
    db: Db;
    queue: Queue;
    waiter: CompletionWaiter;
    config: ApiConfig;
    keys: IdempotencyKeys;
    logger: Logger;
    store: BlobStore;
  }) {
    this.keys = deps.keys;
    this.db = deps.db;
    this.queue = deps.queue;
    this.waiter = deps.waiter;
    this.config = deps.config;
    this.outage = createOutageReporter(
      deps.logger,
      'redis',
      'unavailable; new extractions wait for the reconciler to enqueue them',
    );
    this.store = deps.store;
    this.storeSlots = pLimit(
      deps.config.UPLOAD_STORE_CONCURRENCY ?? Math.max(1, Math.floor(deps.config.DB_POOL_MAX / 2)),
    );
  }

  /**
   * Writes the extraction as `pending` with snapshots of the schema, then enqueues it. The row
   * is committed before the enqueue: if Redis is unavailable the row waits for the reconciler
   * rather than the request failing and the submission being lost.
   *
   * With an Idempotency-Key the key is claimed in the same transaction as the row: a repeat of
   * the request finds the extraction the key created and answers for its current state instead
   * (docs/idempotency.md). An uploaded file is stored in the same transaction: the row never
   * exists without its bytes, nor the bytes without it.
   */
  async create(
    accountId: string,
    input: ExtractionInput,
    ctx: CreateContext & { idempotency?: IdempotencyRequest | undefined },
  ): Promise<CreateOutcome> {
    const id = randomUUID();
    const write = async (tx: DbExecutor, inTransaction: Tx | null) => {
      if (ctx.idempotency) {
        if (!inTransaction) throw new Error('an Idempotency-Key is only claimed in a transaction');
        const claim = await this.keys.claim(
          inTransaction,
          accountId,
          ctx.idempotency,
          'extraction',
          id,
        );
        if (claim.kind === 'replay') return { created: false as const, id: claim.resourceId };
      }
      const active = await checkActiveExtractions(
        tx,
        accountId,
        this.config.MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT,
      );
      const stored = input.upload ? await this.store.put(tx, input.upload.open()) : undefined;
      if (stored && stored.size !== input.upload?.file.size)
        throw new Error('the stored upload differs in size from the one received');
      // One statement: the schema's snapshot is read by the insert itself (a missing schema
      // leaves the name null, which the column refuses), saving a round trip per create.
      const snapshot = (column: typeof schemas.name | typeof schemas.structure) =>
        sql`(select ${column} from ${schemas} where ${schemas.accountId} = ${accountId} and ${schemas.id} = ${input.schemaId})`;
      const [inserted] = await tx
        .insert(extractions)
        .values({
          id,
          accountId,
          schemaId: input.schemaId,
          schemaName: snapshot(schemas.name),
          schemaStructure: snapshot(schemas.structure),
          sourceType: input.type,
          source: input.source,
          instruction: input.instruction ?? null,
          metadata: input.metadata,
          file: input.upload?.file ?? null,
          fileRef: stored?.ref ?? null,
          model: input.model,
          citationsRequested: input.citations,
          requestId: ctx.requestId,
        })
        .returning()
        .catch((err: unknown) => {
          throw isNotNullViolation(err, 'schema_name')
            ? validationError([
                { field: 'schema_id', message: 'schema_id does not name a schema of this account' },
              ])
            : err;
        });
      if (!inserted) throw new Error('insert returned no row');
      return { created: true as const, row: inserted, priority: active + 1 };
    };
    // Without a key to claim or bytes to store there is nothing to commit together: the insert
    // runs on its own, saving BEGIN and COMMIT round trips on the hottest path
    // (docs/performance.md).
    // An upload's copy holds a connection for as long as it takes, so uploads take turns
    // (storeSlots) and the other requests keep their connections.
    const inTransaction = () => this.db.transaction((tx) => write(tx, tx));
    const written = input.upload
      ? await this.storeSlots(inTransaction)
      : ctx.idempotency
        ? await inTransaction()
        : await write(this.db, null);
    if (written.created)
      return this.enqueueAndWait(accountId, written.row, ctx, false, written.priority);

    const existing = await this.find(accountId, written.id);
    if (!existing)
      throw new HttpError(
        404,
        'NOT_FOUND',
        'The extraction this Idempotency-Key created has been deleted.',
      );
    if (FINAL_STATUSES.has(existing.status))
      return { kind: 'finished', row: existing, replayed: true };
    // Still running: the process that created it may have died before enqueueing, so make sure
    // it has its job (the extraction id is the job id, so this never adds a second one).
    return this.enqueueAndWait(accountId, existing, ctx, true);
  }

  /** Enqueues the extraction's job (a no-op when it exists) and waits as the client asked. */
  private async enqueueAndWait(
    accountId: string,
    row: ExtractionRow,
    ctx: CreateContext,
    replayed: boolean,
    priority?: number,
  ): Promise<CreateOutcome> {
    const id = row.id;
    // Listen before enqueueing so a fast worker cannot finish unnoticed.
    const deadline = Date.now() + ctx.waitSeconds * 1000;
    const stopListening = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stopListening.signal]);
    const firstWake =
      ctx.waitSeconds > 0
        ? this.waiter.wait(id, Math.min(this.recheckMs(), ctx.waitSeconds * 1000), signal)
        : null;

    const payload: ExtractJobPayload = {
      extractionId: id,
      requestId: ctx.requestId,
      ...(ctx.traceparent ? { traceparent: ctx.traceparent } : {}),
    };
    try {
      if (Date.now() < this.enqueueSkipUntil)
        throw new Error('Redis failed moments ago; enqueue left to the reconciler');
      await pTimeout(
        enqueueExtraction(this.queue, payload, {
          attempts: this.config.JOB_ATTEMPTS,
          backoffMs: this.config.JOB_BACKOFF_MS,
          ...(priority ? { priority } : {}),
        }),
        { milliseconds: ENQUEUE_DEADLINE_MS, message: 'enqueue timed out' },
      );
    } catch (err) {
      // The committed row is the record: the reconciler enqueues it once Redis answers. No
      // worker can start it before then, so waiting would only hold the client: answer now.
      if (Date.now() >= this.enqueueSkipUntil)
        this.enqueueSkipUntil = Date.now() + ENQUEUE_SKIP_AFTER_FAILURE_MS;
      stopListening.abort();
      this.outage.failed(err);
      // The outage itself is one warning (above); each request only notes which row waits.
      ctx.log.info(
        { error: errorSummary(err), extractionId: id },
        'enqueue failed; the reconciler will enqueue it',
      );
      return { kind: 'accepted', row, retryAfterSeconds: 5, replayed };
    }
    this.outage.recovered();
    this.enqueueSkipUntil = 0;

    if (firstWake === null) return { kind: 'accepted', row, retryAfterSeconds: 2, replayed };
    const latest = (await this.waitForFinal(accountId, id, deadline, firstWake, signal)) ?? row;
    return FINAL_STATUSES.has(latest.status)
      ? { kind: 'finished', row: latest, replayed }
      : { kind: 'accepted', row: latest, retryAfterSeconds: 5, replayed };
  }

  /** Between looks at the database: short while wake-ups cannot arrive (subscriber offline). */
  private recheckMs(): number {
    return this.waiter.live ? RECHECK_MS : OFFLINE_RECHECK_MS;
  }

  /**
   * Wakes on each notification (or every RECHECK_MS) and reads the row, until it is final, the
   * deadline passes, the client goes away or the API shuts down. Returns the last row read.
   */
  private async waitForFinal(
    accountId: string,
    id: string,
    deadline: number,
    firstWake: Promise<boolean>,
    signal: AbortSignal,
  ): Promise<ExtractionRow | undefined> {
    let wake = firstWake;
    for (;;) {
      await wake;
      const row = await this.find(accountId, id);
      if (!row || FINAL_STATUSES.has(row.status)) return row;
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal.aborted || this.waiter.closed) return row;
      wake = this.waiter.wait(id, Math.min(this.recheckMs(), remaining), signal);
    }
  }

  async find(accountId: string, id: string): Promise<ExtractionRow | undefined> {
    const [row] = await extractionById(this.db).execute({ accountId, id });
    return row;
  }

  async get(accountId: string, id: string): Promise<ExtractionRow> {
    const row = await this.find(accountId, id);
    if (!row) throw notFound('Extraction');
    return row;
  }

  list(accountId: string, q: ListQuery) {
    return listExtractions(this.db, accountId, q);
  }

  /**
   * Deletes the row first: a job that is already running then finds nothing to update and
   * writes no result and no charge. A job still waiting is removed from the queue. An uploaded
   * file and the page previews go in the same transaction as the row.
   */
  async delete(accountId: string, id: string, log: Logger): Promise<void> {
    const deleted = await this.db.transaction(async (tx) => {
      const rows = await tx
        .delete(extractions)
        .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)))
        .returning({
          id: extractions.id,
          fileRef: extractions.fileRef,
          pageImages: extractions.pageImages,
        });
      if (this.store.transactional) await this.store.delete(tx, storedRefs(rows));
      return rows;
    });
    // A store outside the transaction loses the bytes only once the row is gone; should that
    // fail, the orphan sweep removes them.
    const refs = storedRefs(deleted);
    if (!this.store.transactional && refs.length > 0)
      await this.store
        .delete(this.db, refs)
        .catch((err: unknown) =>
          log.warn(
            { error: errorSummary(err), extractionId: id },
            'stored upload left to the sweep',
          ),
        );
    if (deleted.length === 0) throw notFound('Extraction');
    try {
      const job = await this.queue.getJob(id);
      if (job && !(await job.isActive())) await job.remove();
    } catch (err) {
      // Locked by a worker that just picked it up: that worker will find no row and stop.
      log.debug({ err, extractionId: id }, 'job not removed');
    }
  }
}

/** The upload and the page previews drawn from it (docs/citations.md#review-view). */
function storedRefs(
  rows: { fileRef: string | null; pageImages: Record<string, string> | null }[],
): string[] {
  return rows.flatMap((r) => [
    ...(r.fileRef ? [r.fileRef] : []),
    ...Object.values(r.pageImages ?? {}),
  ]);
}

/** A failed extraction as the error a synchronous create answers with (docs/api.md#waiting-and-prefer). */
export function failureAsHttpError(row: ExtractionRow): HttpError {
  const code = isFailureCode(row.errorCode) ? row.errorCode : 'INTERNAL';
  const status = failureHttpStatus(code);
  const message = row.errorMessage ?? 'The extraction failed.';
  const extra = { extractionId: row.id };
  if (status === 422)
    return new HttpError(422, code, message, { fields: [{ field: 'source', message }], extra });
  return new HttpError(status, code, message, { extra });
}
