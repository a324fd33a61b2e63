/**
 * The bound on an account's unfinished extractions holds exactly under a burst of concurrent
 * creates (docs/security.md#fair-use). The race is made certain rather than likely: a
 * transaction here holds the counters' table so that no create can commit until every one of
 * the burst has read the count. Before, each create's insert read the count from its own
 * snapshot, so all of them read the same count and all were accepted.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPool, waitFor } from '@xt/testkit';
import { startTestApi, type TestApi } from '../../test/start-api.ts';

const BOUND = 3;
const BURST = 8;

let api: TestApi;
let db: pg.Pool;

beforeAll(async () => {
  // No worker: every accepted extraction stays pending. The pool has room for the whole burst.
  api = await startTestApi({
    MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT: String(BOUND),
    DB_POOL_MAX: String(BURST + 4),
  });
  db = openTestPool(api.database.url);
});

afterAll(async () => {
  await db?.end();
  await api?.close();
});

describe('the bound on unfinished extractions', () => {
  it('accepts exactly the bound from a burst of concurrent creates', async () => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Bound', structure: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const create = (i: number) =>
      api.request('POST', '/v1/extractions', {
        json: { schema_id: schema.body.data.id, type: 'text', source: `burst ${i}` },
        headers: { prefer: 'respond-async' },
      });

    const holder = new pg.Client({ connectionString: api.database.url });
    await holder.connect();
    const { rows: me } = await holder.query<{ pid: number }>('select pg_backend_pid() as pid');
    let burst: Promise<Awaited<ReturnType<typeof create>>[]>;
    try {
      // Reads of the counters go on; the insert's trigger, which writes them, waits.
      await holder.query('begin');
      await holder.query('lock table extraction_counts in share row exclusive mode');
      burst = Promise.all(Array.from({ length: BURST }, (_, i) => create(i)));
      // Every create of the burst waits behind that transaction, directly or behind one that
      // does. Asked from another connection: a transaction sees pg_stat_activity as it first
      // read it.
      await waitFor(async () => {
        const { rows } = await db.query<{ n: number }>(
          `with recursive blocked(pid) as (
             select pid from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))
             union
             select a.pid from pg_stat_activity a join blocked b on b.pid = any(pg_blocking_pids(a.pid))
           ) select count(*)::int as n from blocked`,
          [me[0]?.pid],
        );
        return (rows[0]?.n ?? 0) >= BURST;
        // Within the API's statement timeout (30 s), which would end the first insert's wait.
      }, 25_000);
      await holder.query('commit');
    } finally {
      await holder.end();
    }

    const answers = await burst;
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(BOUND);
    expect(statuses.filter((s) => s === 429)).toHaveLength(BURST - BOUND);
    for (const r of answers.filter((a) => a.status === 429))
      expect(r.body.code).toBe('TOO_MANY_ACTIVE');
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from extractions where status in ('pending', 'processing')`,
    );
    expect(rows[0]?.n).toBe(BOUND);
  }, 120_000);
});
