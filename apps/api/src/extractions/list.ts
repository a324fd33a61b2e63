/**
 * The extraction list: its filters, and `meta.total` from the counters the database keeps
 * (`extraction_counts`, docs/scaling.md) rather than by counting an account's rows, which
 * grows with the account: about 120 ms at a million extractions against 0.1 ms for the sum.
 * Decision and measurements: docs/scaling.md.
 */
import { and, count, eq, gte, lt, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { extractionCounts, extractionDayCounts, extractions, type Db } from '@xt/db';
import { containsPattern, type ListQuery } from '../http/listing/list-query.ts';
import {
  listConditions,
  pageRows,
  pageRowsQuery,
  type ListColumns,
} from '../http/listing/list-page.ts';
import { paginationMeta } from '../http/listing/pagination.ts';

const COLUMNS: ListColumns = {
  accountId: extractions.accountId,
  createdAt: extractions.createdAt,
  id: extractions.id,
  // The schema's name when the extraction was made, so deleted schemas still match (docs/api.md#list-filters).
  searchOn: extractions.schemaName,
};

function whereOf(accountId: string, q: ListQuery) {
  return listConditions(COLUMNS, accountId, q, [
    q.status ? eq(extractions.status, q.status) : undefined,
    q.schemaId ? eq(extractions.schemaId, q.schemaId) : undefined,
    q.parentId ? eq(extractions.parentId, q.parentId) : undefined,
  ]);
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * How many extractions match, from the counters: by status, schema and the schema's name
 * (`search` matches that name), or by UTC day (date ranges are whole UTC days). Only a date
 * range combined with another filter counts rows: those of the days asked for, through the
 * list index. `within`, from the counters alone: how many pass the other filters, `search`
 * aside (null when a date range is asked for), so that the page knows how dense the matches are.
 */
export function totalQuery(db: Db, accountId: string, q: ListQuery) {
  const dated = q.startDate || q.endDateExclusive;
  const filtered = q.status || q.schemaId || q.search;
  const none = sql<number | null>`null`;
  // A bundle's children are few (one per document) and have no counters: counted as rows,
  // through the parent's index.
  if ((dated && filtered) || q.parentId)
    return db.select({ n: count(), within: none }).from(extractions).where(whereOf(accountId, q));
  const sum = (n: PgColumn) => sql<number>`coalesce(sum(${n}), 0)::bigint`.mapWith(Number);
  if (dated) {
    const d = extractionDayCounts;
    return db
      .select({ n: sum(d.n), within: none })
      .from(d)
      .where(
        and(
          eq(d.accountId, accountId),
          q.startDate ? gte(d.day, utcDay(q.startDate)) : undefined,
          q.endDateExclusive ? lt(d.day, utcDay(q.endDateExclusive)) : undefined,
        ),
      );
  }
  const c = extractionCounts;
  const named = q.search
    ? sql`${c.schemaName} ilike ${containsPattern(q.search)} escape '\\'`
    : undefined;
  return db
    .select({
      n: named
        ? sql<number>`coalesce(sum(${c.n}) filter (where ${named}), 0)::bigint`.mapWith(Number)
        : sum(c.n),
      within: sum(c.n),
    })
    .from(c)
    .where(
      and(
        eq(c.accountId, accountId),
        q.status ? eq(c.status, q.status) : undefined,
        q.schemaId ? eq(c.schemaId, q.schemaId) : undefined,
      ),
    );
}

/**
 * A search matching at least one extraction in this many is found by walking the list index in
 * order, after reading about this many times the page's rows; rarer ones are left to the
 * planner (with statistics it reads them through the name's trigram index and sorts them).
 */
const DENSE_SEARCH = 100;

/**
 * Whether the page should be planned as a walk of the list index in order (WALK_IN_INDEX_ORDER):
 * a search the counters show to be dense, which a planner without statistics takes for rare.
 */
export function walksInIndexOrder(
  q: ListQuery,
  totals: { n: number; within: number | null } | undefined,
): boolean {
  if (!q.search || !totals || totals.within === null) return false;
  return totals.n * DENSE_SEARCH >= totals.within;
}

/** Both statements a list page runs, for the tests that check their plans. */
export function listStatements(db: Db, accountId: string, q: ListQuery) {
  return {
    total: totalQuery(db, accountId, q),
    rows: pageRowsQuery(db, extractions, COLUMNS, whereOf(accountId, q), q),
  };
}

export async function listExtractions(db: Db, accountId: string, q: ListQuery) {
  const [totals] = await totalQuery(db, accountId, q);
  const where = whereOf(accountId, q);
  const rows = await pageRows(db, extractions, COLUMNS, where, q, walksInIndexOrder(q, totals));
  return { rows, meta: paginationMeta(totals?.n ?? 0, q.page, q.limit) };
}
