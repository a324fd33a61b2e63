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
 * A number the planner cannot read while it plans: LIMIT and OFFSET given this way are planned
 * for the first tenth of the rows, as PostgreSQL does for any limit it cannot estimate, so the
 * plan is a walk of the list index in order whatever the page. With the numbers visible, a page
 * deeper than the rows the planner expects for the account (a table without statistics expects
 * few) made it read and sort every row of the account instead. drizzle's builder types LIMIT and
 * OFFSET as numbers but renders the SQL it is handed. `bigint`, as OFFSET itself is: the offset
 * of a page past 2^31 ÷ limit does not fit an `int` (that page answered 500), and every offset
 * MAX_PAGE allows fits a `bigint`.
 */
const unplanned = (n: number): number => sql`(select ${n}::bigint)` as unknown as number;

/**
 * The page's rows, newest first with ties broken by id (stable across pages), which is the
 * exact order of every list index. `nulls last` because that is how the list indexes are built
 * (drizzle-kit writes `DESC NULLS LAST`): PostgreSQL's plain `DESC` means `NULLS FIRST`, which
 * those indexes cannot serve even though the columns are never null, and every page then sorted
 * all of the account's rows.
 */
export function pageRowsQuery<T extends PgTable>(
  db: Pick<Db, 'select'>,
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
    .limit(unplanned(q.limit))
    .offset(unplanned(offsetFor(q.page, q.limit)));
}

/**
 * Told to the planner, for one transaction, when the caller knows a walk of the list index in
 * order finds the page soon (a filter most rows pass) but the planner has no statistics to
 * know it: a filter it cannot estimate looks rare, and it would read and sort every row of the
 * account instead. Sorting stays possible (a plan without another way still sorts), only priced
 * out.
 */
export const WALK_IN_INDEX_ORDER = 'set local enable_sort = off';

/** The page's rows; `inIndexOrder` plans them under WALK_IN_INDEX_ORDER. */
export async function pageRows<T extends PgTable>(
  db: Db,
  table: T,
  cols: ListColumns,
  where: SQL | undefined,
  q: ListQuery,
  inIndexOrder = false,
): Promise<T['$inferSelect'][]> {
  if (!inIndexOrder) return await pageRowsQuery(db, table, cols, where, q);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(WALK_IN_INDEX_ORDER));
    return await pageRowsQuery(tx, table, cols, where, q);
  });
}

/** How many rows match `where`, by counting them: for tables that keep no counters. */
export function countQuery(db: Db, table: PgTable, where: SQL | undefined) {
  return db.select({ n: count() }).from(table).where(where);
}

/** One page and its meta, for tables that keep no counters: the matching rows are counted. */
export async function listPage<T extends PgTable>(
  db: Db,
  table: T,
  cols: ListColumns,
  where: SQL | undefined,
  q: ListQuery,
) {
  // One after the other, not at once: two pooled connections per list request would halve
  // how many requests a process's pool serves before they wait for connections.
  const n = (await countQuery(db, table, where))[0]?.n ?? 0;
  const rows = await pageRows(db, table, cols, where, q);
  return { rows, meta: paginationMeta(n, q.page, q.limit) };
}
