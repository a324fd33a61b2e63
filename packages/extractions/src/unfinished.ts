import { sql, type SQL } from 'drizzle-orm';
import type { DbExecutor } from '@xt/blob-store';
import type { ExtractionPriority } from '@xt/contract';
import { extractionCounts } from '@xt/db';

/**
 * The account's extractions still `pending` or `processing`, as an expression a statement reads
 * itself: summed from the counters the database keeps (`extraction_counts`, at most 16 shards
 * × 2 statuses × schemas rows) rather than counted from the account's unfinished rows, which
 * cost a scan as long as its backlog and a statement of its own per create
 * (docs/performance.md).
 */
export function unfinishedSql(accountId: string): SQL<number> {
  const c = extractionCounts;
  return sql<number>`(select coalesce(sum(${c.n}), 0) from ${c} where ${c.accountId} = ${accountId} and ${c.status} in ('pending', 'processing'))`.mapWith(
    Number,
  );
}

/** The account's unfinished extractions, as a statement of its own. */
export async function countUnfinished(db: DbExecutor, accountId: string): Promise<number> {
  const [row] = await db.select({ n: unfinishedSql(accountId) }).from(sql`(select 1) one`);
  return row?.n ?? 0;
}

/**
 * The fair-scheduling priority of a job given to an extraction that already exists and is
 * unfinished (the reconciler's, an Idempotency-Key replay's): the rule of a fresh create, the
 * account's unfinished extractions with this one among them, read now
 * (docs/security.md#fair-scheduling). Without one, BullMQ would run the job ahead of every
 * prioritised job, and a backlog enqueued again after a Redis outage would jump every other
 * account's work.
 */
export async function priorityOfUnfinished(
  db: DbExecutor,
  accountId: string,
  priority: ExtractionPriority,
): Promise<number> {
  return jobPriority(Math.max(1, await countUnfinished(db, accountId)), priority);
}

/**
 * Where batch jobs start: past any account's backlog (MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT is far
 * below it), so every standard job runs before any batch one (docs/batch.md), and batch jobs
 * keep the fair order among themselves. BullMQ's largest priority is 2^21.
 */
export const BATCH_PRIORITY_FLOOR = 1_048_576;

/** The BullMQ priority of a job: the fair-scheduling rank, after every standard job for batch. */
export function jobPriority(rank: number, priority: ExtractionPriority): number {
  return priority === 'batch' ? BATCH_PRIORITY_FLOOR + rank : rank;
}
