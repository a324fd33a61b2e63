/** Query plans for the tests that check what a statement reads (EXPLAIN … FORMAT JSON). */
import type pg from 'pg';

export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  'Heap Fetches'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

/** The executed plan of a drizzle statement, with the buffers it read; `setting` set locally first. */
export async function explain(
  pool: pg.Pool,
  statement: { toSQL(): { sql: string; params: unknown[] } },
  setting?: string,
): Promise<PlanNode> {
  const { sql, params } = statement.toSQL();
  const client = await pool.connect();
  try {
    await client.query('begin');
    if (setting) await client.query(setting);
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `explain (analyze, buffers, format json) ${sql}`,
      params,
    );
    return rows[0]!['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('rollback').catch(() => undefined);
    client.release();
  }
}

/** The plan and every node below it. */
export function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

export const pagesRead = (plan: PlanNode) => plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
