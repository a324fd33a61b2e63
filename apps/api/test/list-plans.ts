/** The extraction list's statements as the plan tests explain them (list-scale, list-without-statistics). */
import type { Db } from '@xt/db';
import { WALK_IN_INDEX_ORDER } from '../src/http/listing/list-page.ts';
import { parseListQuery, type ListQuery } from '../src/http/listing/list-query.ts';
import { listStatements, walksInIndexOrder } from '../src/extractions/list.ts';

/** The list query of the extraction list route; the tests' params are always valid. */
export function extractionQuery(params: Record<string, string>): ListQuery {
  const parsed = parseListQuery(params, { extraction: true });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.value;
}

/**
 * A page's two statements, the count run first as the route runs it: its totals decide the
 * setting the rows' statement runs under (`setting`, for `explain`).
 */
export async function pageStatements(db: Db, accountId: string, q: ListQuery) {
  const { total, rows } = listStatements(db, accountId, q);
  const [totals] = await total;
  const setting = walksInIndexOrder(q, totals) ? WALK_IN_INDEX_ORDER : undefined;
  return { total, rows, setting };
}
