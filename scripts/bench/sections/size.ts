/**
 * 9. Cost against data size: the list page and one record of an account with 1,000,000
 * extractions beside one with 1,000, in the same database, through the same API process,
 * alternating the two. The large account is written straight into PostgreSQL in bulk (as
 * weeks of use would leave it), not through the API.
 */
import pg from 'pg';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { seedExtractions, seededSchemaId } from '@xt/testkit';
import type { BenchStack } from '../lib/bench-stack.ts';
import { send } from '../lib/client.ts';
import type { Plan } from '../lib/plan.ts';
import type { Results } from '../lib/report.ts';
import { percentile } from '../lib/stats.ts';

interface Account {
  rows: number;
  headers: Record<string, string>;
  someId: string;
}

const day = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** The queries of the list, each with the percentile its target is judged on. */
const QUERIES: { name: string; query: string; target: 'p50' | 'p95' }[] = [
  { name: 'first page', query: 'limit=10', target: 'p50' },
  { name: 'page=20', query: 'limit=10&page=20', target: 'p50' },
  { name: 'status=completed', query: 'limit=10&status=completed', target: 'p50' },
  { name: 'status=failed', query: 'limit=10&status=failed', target: 'p50' },
  { name: 'schema_id=', query: `limit=10&schema_id=${seededSchemaId(3)}`, target: 'p50' },
  { name: 'search=', query: 'limit=10&search=schema%203', target: 'p95' },
  {
    name: "one day's startDate/endDate",
    query: `limit=10&startDate=${day(2)}&endDate=${day(2)}`,
    target: 'p95',
  },
];

async function account(stack: BenchStack, pool: pg.Pool, name: string, rows: number) {
  const handle = createDb(stack.service.databaseUrl, { max: 1 });
  const { key, accountId } = await createKey(handle.db, { accountName: name, scope: 'read' });
  await handle.close();
  await seedExtractions(pool, accountId, rows);
  const { rows: some } = await pool.query<{ id: string }>(
    'select id from extractions where account_id = $1 order by created_at desc offset 5 limit 1',
    [accountId],
  );
  return { rows, headers: { authorization: `Bearer ${key}` }, someId: some[0]!.id };
}

/**
 * `requests` sequential requests to each account, alternating one to each (one client, so each
 * figure is a request's own latency, and load from elsewhere on the machine hits both alike).
 */
async function latencies(
  base: string,
  path: (a: Account) => string,
  accounts: Account[],
  requests: number,
) {
  const ms = accounts.map(() => [] as number[]);
  for (let i = 0; i < requests; i++) {
    for (const [n, a] of accounts.entries()) {
      const answer = await send(`${base}${path(a)}`, { headers: a.headers });
      if (answer.status !== 200) throw new Error(`GET ${path(a)} answered ${answer.status}`);
      ms[n]!.push(answer.ms);
    }
  }
  return ms;
}

export async function measureSize(
  stack: BenchStack,
  plan: Plan,
  results: Results,
  log: (line: string) => void,
): Promise<void> {
  const pool = new pg.Pool({ connectionString: stack.service.databaseUrl, max: 1 });
  try {
    log(`§9 seeding 1,000 and ${plan.size.rows.toLocaleString('en')} extractions`);
    const small = await account(stack, pool, 'size-small', 1_000);
    const seedStarted = Date.now();
    const big = await account(stack, pool, 'size-big', plan.size.rows);
    log(`§9 seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s; vacuum analyze`);
    // What autovacuum does on its own after a bulk load: statistics and the visibility map.
    await pool.query('vacuum analyze extractions');
    const base = stack.apis[0]!.url;
    const figures = new Map<string, number[]>();
    const add = (key: string, value: number) =>
      figures.set(key, [...(figures.get(key) ?? []), value]);
    const paths = [
      ...QUERIES.map((q) => ({ ...q, path: () => `/v1/extractions?${q.query}` })),
      {
        name: 'GET /extractions/{id}',
        target: 'p50' as const,
        path: (a: Account) => `/v1/extractions/${a.someId}`,
      },
    ];
    for (let rep = 1; rep <= plan.reps; rep++) {
      for (const q of paths) {
        log(`§9 rep ${rep}: ${q.name}`);
        const accounts = rep % 2 ? [small, big] : [big, small];
        const ms = await latencies(base, q.path, accounts, plan.size.requests);
        for (const [n, a] of accounts.entries()) {
          add(`${q.name}:${a.rows}:p50`, percentile(ms[n]!, 50));
          add(`${q.name}:${a.rows}:p95`, percentile(ms[n]!, 95));
        }
      }
    }
    const rows = plan.size.rows.toLocaleString('en');
    for (const q of paths) {
      for (const p of ['p50', 'p95'] as const) {
        const row = {
          section: '9',
          measure: `${q.name} at ${rows} rows vs 1,000, ${p}`,
          unit: 'ms',
          decimals: 1,
          service: figures.get(`${q.name}:${big.rows}:${p}`) ?? [],
          baseline: figures.get(`${q.name}:${small.rows}:${p}`) ?? [],
          baselineName: '(1,000 rows)',
        };
        if (p !== q.target) results.add(row);
        else {
          const limit = p === 'p50' ? 1.5 : 3;
          results.addWithTarget(row, `≤ ${limit}× at 1,000 rows (${p})`, (s, b) => s <= limit * b);
        }
      }
    }
    results.note(
      `§9: ${plan.size.requests} sequential requests per query and account each repetition, one to each account in turn; the ` +
        `large account seeded with generate_series over 30 days (97% completed, 3% failed, ` +
        `five schemas), then vacuumed and analysed as autovacuum would.`,
    );
  } finally {
    await pool.end();
  }
}
