import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type {
  Citations,
  ExtractionWarning,
  FailureCode,
  FormatName,
  ModelUsage,
  SourceType,
} from '@xt/contract';
import { extractions, preparedPerDb, type Db, type ExtractionRow } from '@xt/db';
import { scrubText } from '@xt/runtime';
import { noEndpointSubscribes, recordFinalEvent } from '@xt/webhooks';
import { reviewOnCompletion } from './review/on-completion.ts';

/**
 * Every state change is one conditional UPDATE (docs/api.md#states): it only applies when the row is
 * in the state the caller expects, so a duplicate or retried job can never complete, fail or
 * charge an extraction twice, and a deleted extraction is never written again.
 */

export type ClaimResult =
  | { kind: 'claimed'; row: ExtractionRow }
  | { kind: 'gone' }
  | { kind: 'final'; row: ExtractionRow };

/**
 * pending → processing. A row already `processing` is taken over too: that is a job BullMQ
 * re-delivered after its worker died, and refusing it would leave the row stuck forever.
 */
export async function claim(db: Db, id: string): Promise<ClaimResult> {
  const [row] = await claimStatement(db).execute({ id });
  if (row) return { kind: 'claimed', row };
  const [existing] = await db.select().from(extractions).where(eq(extractions.id, id));
  return existing ? { kind: 'final', row: existing } : { kind: 'gone' };
}

/** Every job starts with it, so it is built once (see preparedPerDb). */
const claimStatement = preparedPerDb('claim_extraction', (db, name) =>
  db
    .update(extractions)
    .set({
      status: 'processing',
      attempts: sql`${extractions.attempts} + 1`,
      // Each attempt counts its pages afresh.
      pagesDone: 0,
      pagesTotal: 0,
      startedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(extractions.id, sql.placeholder('id')),
        inArray(extractions.status, ['pending', 'processing']),
      ),
    )
    .returning()
    .prepare(name),
);

export async function exists(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: extractions.id })
    .from(extractions)
    .where(eq(extractions.id, id));
  return row !== undefined;
}

type ExtractionUpdate = PgUpdateSetSource<typeof extractions>;

/**
 * What one attempt spent (docs/cost.md): its tokens, as the provider split them, and what they
 * cost at the worker's prices. An attempt's spend is added to what earlier attempts spent.
 */
export interface Spent {
  tokens: number;
  usage: ModelUsage;
  costUsd: number;
}

/**
 * Leaves `processing` for `status`, adding what this attempt spent. Applies only while the row
 * is still `processing`: false when another delivery got there first or the row is gone.
 */
async function leaveProcessing(
  db: Db,
  id: string,
  spent: Spent,
  status: 'completed' | 'failed' | 'pending',
  next: ExtractionUpdate,
): Promise<boolean> {
  const set = { ...next, status, ...added(spent), updatedAt: sql`now()` };
  const stillProcessing = and(eq(extractions.id, id), eq(extractions.status, 'processing'));
  // Most accounts have no webhook subscribed: then there is no event to record with the
  // transition and one statement does it, instead of BEGIN, UPDATE, SELECT and COMMIT
  // (docs/performance.md). Matching nothing sends it on to the transaction below, which
  // also tells "another delivery got there first" apart.
  const event = status === 'pending' ? undefined : (`extraction.${status}` as const);
  const [direct] = await db
    .update(extractions)
    .set(set)
    .where(
      event
        ? and(stillProcessing, noEndpointSubscribes(event, extractions.accountId))
        : stillProcessing,
    )
    .returning({ id: extractions.id });
  if (direct) return true;
  if (!event) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx.update(extractions).set(set).where(stillProcessing).returning();
    if (!row) return false;
    // A final state is announced in the same transaction, so it can never go unannounced
    // (docs/webhooks.md).
    await recordFinalEvent(tx, row);
    return true;
  });
}

/** The row's totals with `spent` added: attempts' spend adds up, none replaces another's. */
function added(spent: Spent): ExtractionUpdate {
  return {
    totalTokens: sql`${extractions.totalTokens} + ${spent.tokens}`,
    inputTokens: sql`${extractions.inputTokens} + ${spent.usage.inputTokens}`,
    outputTokens: sql`${extractions.outputTokens} + ${spent.usage.outputTokens}`,
    cachedInputTokens: sql`${extractions.cachedInputTokens} + ${spent.usage.cachedInputTokens}`,
    costUsd: sql`${extractions.costUsd} + ${spent.costUsd}::double precision`,
  };
}

/**
 * Adds what a failed attempt of one page window spent, while the extraction stays
 * `processing` (docs/scaling.md#one-large-document): the window is retried alone, so there is
 * no transition to carry it, as `pending` carries a one-job attempt's. One statement per failed
 * attempt, so its spend counts once; false when the row is gone or no longer `processing`.
 */
export async function recordSpent(db: Db, id: string, spent: Spent): Promise<boolean> {
  const rows = await db
    .update(extractions)
    .set(added(spent))
    .where(and(eq(extractions.id, id), eq(extractions.status, 'processing')))
    .returning({ id: extractions.id });
  return rows.length > 0;
}

/**
 * processing → completed, charged; citations and warnings are stored with the output, and the
 * review the schema asks for (docs/review.md).
 * `savedUsd`: what the batch price saved against the standard one (docs/cost.md).
 */
export async function complete(
  db: Db,
  id: string,
  output: unknown,
  spent: Spent & { savedUsd?: number },
  grounded: {
    citations: Citations | null;
    warnings: ExtractionWarning[] | null;
    /** Page previews for the review view: page → blob ref (docs/citations.md#review-view). */
    pageImages?: Record<string, string> | null;
  } = {
    citations: null,
    warnings: null,
  },
): Promise<boolean> {
  const review = await reviewOnCompletion(db, id, output, grounded.citations);
  return leaveProcessing(db, id, spent, 'completed', {
    output,
    ...review,
    ...(spent.savedUsd ? { savedUsd: spent.savedUsd } : {}),
    citations: grounded.citations,
    warnings: grounded.warnings,
    pageImages: grounded.pageImages ?? null,
    charged: true,
    errorCode: null,
    errorMessage: null,
    finishedAt: sql`now()`,
  });
}

/**
 * processing → failed (uncharged, final), or back to pending when a retry follows (the error is
 * then kept for operators but not shown). Either way the tokens spent are recorded.
 */
export function recordFailure(
  db: Db,
  id: string,
  failure: { code: FailureCode; message: string } & Spent,
  next: 'failed' | 'pending',
): Promise<boolean> {
  return leaveProcessing(db, id, failure, next, {
    errorCode: failure.code,
    // Shown to the client and to operators: a failure's text may quote a URL or a driver.
    errorMessage: scrubText(failure.message),
    ...(next === 'failed' ? { finishedAt: sql`now()` } : {}),
  });
}

/**
 * processing → pending without an outcome: the job was handed back (worker shutting down) and
 * another delivery will claim it again. The claim is given back too: it was no attempt.
 */
export async function release(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(extractions)
    .set({
      status: 'pending',
      attempts: sql`greatest(${extractions.attempts} - 1, 0)`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(extractions.id, id), eq(extractions.status, 'processing')))
    .returning({ id: extractions.id });
  return rows.length > 0;
}

/**
 * How far a `processing` extraction has come (docs/api.md#progress): pages finished of the
 * pages in all. `updated_at` is left alone: progress is no change of the record's state.
 */
export async function recordProgress(
  db: Db,
  id: string,
  progress: { pagesDone: number; pagesTotal: number },
): Promise<boolean> {
  const rows = await db
    .update(extractions)
    .set(progress)
    .where(and(eq(extractions.id, id), eq(extractions.status, 'processing')))
    .returning({ id: extractions.id });
  return rows.length > 0;
}

/**
 * A batch extraction waiting for the provider (docs/batch.md): the row stays `processing` while
 * its job is put back, and this claim is given back so waiting uses no attempt.
 */
export async function pause(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(extractions)
    .set({ attempts: sql`greatest(${extractions.attempts} - 1, 0)`, updatedAt: sql`now()` })
    .where(and(eq(extractions.id, id), eq(extractions.status, 'processing')))
    .returning({ id: extractions.id });
  return rows.length > 0;
}

/**
 * What a URL source turned out to be once fetched: its format, and for `auto` its kind, so the
 * records show them (docs/sources.md). Only while the row is `processing` under this job.
 */
export async function recordSourceFound(
  db: Db,
  id: string,
  found: { type: SourceType; format: FormatName | null },
): Promise<boolean> {
  const rows = await db
    .update(extractions)
    .set({ sourceType: found.type, format: found.format, updatedAt: sql`now()` })
    .where(and(eq(extractions.id, id), eq(extractions.status, 'processing')))
    .returning({ id: extractions.id });
  return rows.length > 0;
}
