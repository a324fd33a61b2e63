import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import {
  failureHttpStatus,
  FINAL_STATUSES,
  HttpError,
  isFailureCode,
  notFound,
  validationError,
  type ListQuery,
} from '@xt/contract';
import { extractions, schemas, type Db, type ExtractionRow } from '@xt/db';
import {
  EXTRACT_JOB,
  extractJobOptions,
  type CompletionWaiter,
  type ExtractJobPayload,
} from '@xt/queue';
import type { ApiConfig } from '../config.ts';
import { listConditions, listPage, type ListColumns } from '../http/list-page.ts';
import type { ExtractionInput } from './body.ts';

const COLUMNS: ListColumns = {
  accountId: extractions.accountId,
  createdAt: extractions.createdAt,
  id: extractions.id,
  // The schema's name when the extraction was made, so deleted schemas still match (§4).
  searchOn: extractions.schemaName,
};

/** Between two looks at the database while waiting: covers a lost pub/sub wake-up. */
const RECHECK_MS = 5_000;

export type CreateOutcome =
  | { kind: 'finished'; row: ExtractionRow }
  | { kind: 'accepted'; row: ExtractionRow; retryAfterSeconds: number };

export class ExtractionService {
  private readonly db: Db;
  private readonly queue: Queue;
  private readonly waiter: CompletionWaiter;
  private readonly config: ApiConfig;

  constructor(deps: { db: Db; queue: Queue; waiter: CompletionWaiter; config: ApiConfig }) {
    this.db = deps.db;
    this.queue = deps.queue;
    this.waiter = deps.waiter;
    this.config = deps.config;
  }

  /**
   * Writes the extraction as `pending` with snapshots of the schema, then enqueues it. The row
   * is committed before the enqueue: if Redis is unavailable the row waits for the reconciler
   * rather than the request failing and the submission being lost.
   */
  async create(
    accountId: string,
    input: ExtractionInput,
    ctx: { requestId: string; waitSeconds: number; signal: AbortSignal; log: Logger },
  ): Promise<CreateOutcome> {
    const id = randomUUID();
    const row = await this.db.transaction(async (tx) => {
      const [schema] = await tx
        .select({ name: schemas.name, structure: schemas.structure })
        .from(schemas)
        .where(and(eq(schemas.accountId, accountId), eq(schemas.id, input.schemaId)));
      if (!schema)
        throw validationError([
          { field: 'schema_id', message: 'schema_id does not name a schema of this account' },
        ]);
      const [inserted] = await tx
        .insert(extractions)
        .values({
          id,
          accountId,
          schemaId: input.schemaId,
          schemaName: schema.name,
          schemaStructure: schema.structure,
          sourceType: input.type,
          source: input.source,
          instruction: input.instruction ?? null,
          metadata: input.metadata,
          model: input.model,
          requestId: ctx.requestId,
        })
        .returning();
      if (!inserted) throw new Error('insert returned no row');
      return inserted;
    });

    // Listen before enqueueing so a fast worker cannot finish unnoticed.
    const deadline = Date.now() + ctx.waitSeconds * 1000;
    const firstWake =
      ctx.waitSeconds > 0
        ? this.waiter.wait(id, Math.min(RECHECK_MS, ctx.waitSeconds * 1000), ctx.signal)
        : null;

    const payload: ExtractJobPayload = { extractionId: id, requestId: ctx.requestId };
    try {
      await this.queue.add(
        EXTRACT_JOB,
        payload,
        extractJobOptions(id, {
          attempts: this.config.JOB_ATTEMPTS,
          backoffMs: this.config.JOB_BACKOFF_MS,
        }),
      );
    } catch (err) {
      ctx.log.warn({ err, extractionId: id }, 'enqueue failed; the reconciler will enqueue it');
    }

    if (firstWake === null) return { kind: 'accepted', row, retryAfterSeconds: 2 };
    const latest = (await this.waitForFinal(accountId, id, deadline, firstWake, ctx.signal)) ?? row;
    return FINAL_STATUSES.has(latest.status)
      ? { kind: 'finished', row: latest }
      : { kind: 'accepted', row: latest, retryAfterSeconds: 5 };
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
      wake = this.waiter.wait(id, Math.min(RECHECK_MS, remaining), signal);
    }
  }

  async find(accountId: string, id: string): Promise<ExtractionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(extractions)
      .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)));
    return row;
  }

  async get(accountId: string, id: string): Promise<ExtractionRow> {
    const row = await this.find(accountId, id);
    if (!row) throw notFound('Extraction');
    return row;
  }

  list(accountId: string, q: ListQuery) {
    const where = listConditions(COLUMNS, accountId, q, [
      q.status ? eq(extractions.status, q.status) : undefined,
      q.schemaId ? eq(extractions.schemaId, q.schemaId) : undefined,
    ]);
    return listPage(this.db, extractions, COLUMNS, where, q);
  }

  /**
   * Deletes the row first: a job that is already running then finds nothing to update and
   * writes no result and no charge. A job still waiting is removed from the queue.
   */
  async delete(accountId: string, id: string, log: Logger): Promise<void> {
    const deleted = await this.db
      .delete(extractions)
      .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)))
      .returning({ id: extractions.id });
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

/** A failed extraction as the error a synchronous create answers with (§6). */
export function failureAsHttpError(row: ExtractionRow): HttpError {
  const code = isFailureCode(row.errorCode) ? row.errorCode : 'INTERNAL';
  const status = failureHttpStatus(code);
  const message = row.errorMessage ?? 'The extraction failed.';
  const extra = { extractionId: row.id };
  if (status === 422)
    return new HttpError(422, code, message, { fields: [{ field: 'source', message }], extra });
  return new HttpError(status, code, message, { extra });
}
