/**
 * The extraction list: its filters, and `meta.total` from the counters the database keeps
 * (`extraction_counts`, docs/scaling.md) rather than by counting an account's rows, which
 * grows with the account: about 120 ms at a million extractions against 0.1 ms for the sum.
 * Decision and measurements: docs/scaling.md.
 */
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { extractionCounts, extractionDayCounts, extractions, type Db } from '@xt/db';
import { containsPattern, type ListQuery } from '../http/list-query.ts';
import {
  countQuery,
  listConditions,
  listPage,
  pageRowsQuery,
  type ListColumns,
} from '../http/list-page.ts';

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
  ]);
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * How many extractions match, from the counters: by status, schema and the schema's name
 * (`search` matches that name), or by UTC day (date ranges are whole UTC days). Only a date
 * range combined with another filter counts rows: those of the days asked for, through the
 * list index.
 */
export function totalQuery(db: Db, accountId: string, q: ListQuery) {
  const dated = q.startDate || q.endDateExclusive;
  const filtered = q.status || q.schemaId || q.search;
  if (dated && filtered) return countQuery(db, extractions, whereOf(accountId, q));
  const sum = (n: PgColumn) => sql<number>`coalesce(sum(${n}), 0)::bigint`.mapWith(Number);
  if (dated) {
    const d = extractionDayCounts;
    return db
      .select({ n: sum(d.n) })
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
  return db
    .select({ n: sum(c.n) })
    .from(c)
    .where(
      and(
        eq(c.accountId, accountId),
        q.status ? eq(c.status, q.status) : undefined,
        q.schemaId ? eq(c.schemaId, q.schemaId) : undefined,
        q.search ? sql`${c.schemaName} ilike ${containsPattern(q.search)} escape '\\'` : undefined,
      ),
    );
}

/** Both statements a list page runs, for the tests that check their plans. */
export function listStatements(db: Db, accountId: string, q: ListQuery) {
  return {
    total: totalQuery(db, accountId, q),
    rows: pageRowsQuery(db, extractions, COLUMNS, whereOf(accountId, q), q),
  };
}

export function listExtractions(db: Db, accountId: string, q: ListQuery) {
  return listPage(db, extractions, COLUMNS, whereOf(accountId, q), q, async () => {
    const [row] = await totalQuery(db, accountId, q);
    return row?.n ?? 0;
  });
}
