import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
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

/** One page, newest first with ties broken by id (stable across pages), and its meta. */
export async function listPage<T extends PgTable>(
  db: Db,
  table: T,
  cols: ListColumns,
  where: SQL | undefined,
  q: ListQuery,
) {
  // Widened to the base table type: drizzle's select cannot be typed over a generic table.
  const source: PgTable = table;
  const [totalRow] = await db.select({ n: count() }).from(source).where(where);
  const rows = (await db
    .select()
    .from(source)
    .where(where)
    .orderBy(desc(cols.createdAt), desc(cols.id))
    .limit(q.limit)
    .offset(offsetFor(q.page, q.limit))) as T['$inferSelect'][];
  return { rows, meta: paginationMeta(totalRow?.n ?? 0, q.page, q.limit) };
}
