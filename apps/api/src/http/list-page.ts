import { and, count, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { containsPattern, type ListQuery } from './list-query.ts';
import { offsetFor, paginationMeta } from './pagination.ts';
import type { Db } from '@xt/db';

/** The columns every list route filters and orders by (docs/api.md#pagination). */
export interface ListColumns {
  accountId: PgColumn;
  createdAt: PgColumn;
  id: PgColumn;
  /** What `search` matches, case-insensitively and literally. */
  searchOn: PgColumn;
}

/** The caller's account, `search` and the whole-day UTC date range, plus any extra filters. */
export function listConditions(
  cols: ListColumns,
  accountId: string,
  q: ListQuery,
  extra: (SQL | undefined)[] = [],
): SQL | undefined {
  return and(
    eq(cols.accountId, accountId),
    q.search ? sql`${cols.searchOn} ilike ${containsPattern(q.search)} escape '\\'` : undefined,
    q.startDate ? gte(cols.createdAt, q.startDate) : undefined,
    q.endDateExclusive ? lt(cols.createdAt, q.endDateExclusive) : undefined,
    ...extra,
  );
}

/**
 * The page's rows, newest first with ties broken by id (stable across pages). `nulls last`
 * because that is how the list indexes are built (drizzle-kit writes `DESC NULLS LAST`):
 * PostgreSQL's plain `DESC` means `NULLS FIRST`, which those indexes cannot serve even though
 * the columns are never null, and every page then sorted all of the account's rows.
 */
export function pageRowsQuery<T extends PgTable>(
  db: Db,
  table: T,
  cols: ListColumns,
  where: SQL | undefined,
  q: ListQuery,
) {
  // Widened to the base table type: drizzle's select cannot be typed over a generic table.
  const source: PgTable = table;
  return db
    .select()
    .from(source)
    .where(where)
    .orderBy(sql`${cols.createdAt} desc nulls last`, sql`${cols.id} desc nulls last`)
    .limit(q.limit)
    .offset(offsetFor(q.page, q.limit));
}

/** How many rows match `where`, by counting them: for tables that keep no counters. */
export function countQuery(db: Db, table: PgTable, where: SQL | undefined) {
  return db.select({ n: count() }).from(table).where(where);
}

/**
 * One page and its meta. `total` answers how many rows match when the table keeps counters
 * (extractions); without it they are counted.
 */
export async function listPage<T extends PgTable>(
  db: Db,
  table: T,
  cols: ListColumns,
  where: SQL | undefined,
  q: ListQuery,
  total?: () => Promise<number>,
) {
  // One after the other, not at once: two pooled connections per list request would halve
  // how many requests a process's pool serves before they wait for connections.
  const n = total ? await total() : ((await countQuery(db, table, where))[0]?.n ?? 0);
  const rows = (await pageRowsQuery(db, table, cols, where, q)) as T['$inferSelect'][];
  return { rows, meta: paginationMeta(n, q.page, q.limit) };
}
