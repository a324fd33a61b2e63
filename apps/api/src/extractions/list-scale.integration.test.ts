/**
 * The extraction list at size: a table seeded in bulk (as the benchmark's million-row account
 * is, but smaller so the test stays quick) beside a small account. Checks that every list
 * statement reads a bounded number of pages whatever the account's size (EXPLAIN ANALYZE,
 * BUFFERS), and that the counters the totals come from stay exact through inserts, status
 * changes and deletes.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@xt/db';
import {
  createTestDatabase,
  openTestPool,
  seedExtractions,
  seededSchemaId,
  type TestDatabase,
} from '@xt/testkit';
import { listExtractions } from './list.ts';
import { explain, nodes, pagesRead } from '../../test/explain.ts';
import { extractionQuery, pageStatements } from '../../test/list-plans.ts';

const BIG = '00000000-0000-4000-8000-0000000000b1';
const SMALL = '00000000-0000-4000-8000-0000000000b2';
const BIG_ROWS = 60_000;
const SMALL_ROWS = 300;

let database: TestDatabase;
let pool: pg.Pool;
let handle: DbHandle;

const seed = (accountId: string, rows: number) => seedExtractions(pool, accountId, rows);

beforeAll(async () => {
  database = await createTestDatabase();
  pool = openTestPool(database.url);
  handle = createDb(database.url, { max: 2 });
  await pool.query(`insert into accounts (id, name) values ($1, 'big'), ($2, 'small')`, [
    BIG,
    SMALL,
  ]);
  await seed(BIG, BIG_ROWS);
  await seed(SMALL, SMALL_ROWS);
  // What autovacuum does on its own (the table's settings make it prompt): statistics for the
  // planner, and the visibility map that lets a count read the index alone.
  await pool.query('vacuum analyze extractions, extraction_counts, extraction_day_counts');
});

afterAll(async () => {
  await handle?.close();
  await pool?.end();
  await database?.drop();
});

const FILTERS: Record<string, Record<string, string>> = {
  'first page': {},
  'page 20': { page: '20' },
  'status=completed': { status: 'completed' },
  'status=failed, page 5': { status: 'failed', page: '5' },
  schema_id: { schema_id: seededSchemaId(3) },
  search: { search: 'schema 3' },
  'one day': { startDate: dayAgo(2), endDate: dayAgo(2) },
  'a week': { startDate: dayAgo(8) },
};

function dayAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

describe.each(Object.entries(FILTERS))('the list, %s', (_name, params) => {
  it('reads about as many pages for the big account as for the small one', async () => {
    const q = extractionQuery(params);
    const pages = async (accountId: string) => {
      const { total, rows, setting } = await pageStatements(handle.db, accountId, q);
      const [totalPlan, rowsPlan] = [
        await explain(pool, total),
        await explain(pool, rows, setting),
      ];
      // At size the page is an index walk in list order: no sequential or bitmap scan of the
      // account, no sort of every matching row. (For the small account's nine failed rows the
      // planner rightly may sort them; what it reads is still bounded below.)
      if (accountId === BIG)
        expect(nodes(rowsPlan).map((n) => n['Node Type'])).not.toContainEqual(
          expect.stringMatching(/Seq Scan|Bitmap|^Sort$/),
        );
      return { total: pagesRead(totalPlan), rows: pagesRead(rowsPlan), totalPlan };
    };
    const big = await pages(BIG);
    const small = await pages(SMALL);
    // 200 times the rows, a bounded number of pages: an index walk to the page asked for.
    expect(big.rows).toBeLessThanOrEqual(Math.max(4 * small.rows, 60));
    // Every total is a sum over the account's counter rows, never its extractions.
    const read = nodes(big.totalPlan).flatMap((n) => n['Relation Name'] ?? []);
    expect(new Set(read)).toEqual(
      new Set([params.startDate ? 'extraction_day_counts' : 'extraction_counts']),
    );
    // A few pages: the counter rows of a few schemas and statuses, or of the days asked for.
    expect(big.total).toBeLessThanOrEqual(32);
  });

  it('answers the exact total', async () => {
    const q = extractionQuery(params);
    for (const accountId of [BIG, SMALL]) {
      const { meta } = await listExtractions(handle.db, accountId, q);
      const counted = await pool.query<{ n: string }>(
        `select count(*) n from extractions where account_id = $1
           and ($2::text is null or status = $2) and ($3::uuid is null or schema_id = $3)
           and ($4::text is null or schema_name ilike '%' || $4 || '%')
           and ($5::timestamptz is null or created_at >= $5)
           and ($6::timestamptz is null or created_at < $6)`,
        [
          accountId,
          q.status ?? null,
          q.schemaId ?? null,
          q.search ?? null,
          q.startDate ?? null,
          q.endDateExclusive ?? null,
        ],
      );
      expect(meta.total).toBe(Number(counted.rows[0]!.n));
      expect(meta.total).toBeGreaterThan(0);
    }
  });
});

describe('the counters', () => {
  const differences = async () => {
    const { rows } = await pool.query(
      `select coalesce(e.account_id, c.account_id) account, coalesce(e.status, c.status) status,
              coalesce(e.schema_id, c.schema_id) schema, e.n counted, c.n kept
       from (select account_id, status, schema_id, schema_name, count(*) n from extractions
             group by 1, 2, 3, 4) e
       full join (select account_id, status, schema_id, schema_name, sum(n) n
                  from extraction_counts group by 1, 2, 3, 4 having sum(n) <> 0) c
         using (account_id, status, schema_id, schema_name)
       where e.n is distinct from c.n`,
    );
    return rows;
  };

  it('match the rows after inserts, every status change, deletes and a cascade', async () => {
    expect(await differences()).toEqual([]);
    const account = '00000000-0000-4000-8000-0000000000c1';
    await pool.query(`insert into accounts (id, name) values ($1, 'counted')`, [account]);
    await seed(account, 500);
    const move = (to: string, where: string) =>
      pool.query(
        `update extractions set status = $2, charged = ($2 = 'completed')
         where account_id = $1 and ${where}`,
        [account, to],
      );
    // Claimed, then handed back, failed or finished, as jobs do.
    await move('processing', `source like '%9 EUR' or source like '%7 EUR'`);
    await move('pending', `status = 'processing' and source like '%9 EUR'`);
    await move('failed', `status = 'processing' and source like '%17 EUR'`);
    await move('completed', `status = 'processing'`);
    // Updates that leave the status alone change nothing.
    await pool.query(`update extractions set attempts = attempts + 1 where account_id = $1`, [
      account,
    ]);
    await pool.query(`delete from extractions where account_id = $1 and source like '%3 EUR'`, [
      account,
    ]);
    expect(await differences()).toEqual([]);
    const { meta } = await listExtractions(
      handle.db,
      account,
      extractionQuery({ status: 'pending' }),
    );
    expect(meta.total).toBe(50);

    await pool.query(`delete from accounts where id = $1`, [account]);
    expect(await differences()).toEqual([]);
    const after = await listExtractions(handle.db, account, extractionQuery({}));
    expect(after.meta.total).toBe(0);
  });

  it("stay exact while one account's rows change status from many connections at once", async () => {
    const account = '00000000-0000-4000-8000-0000000000c2';
    await pool.query(`insert into accounts (id, name) values ($1, 'busy')`, [account]);
    await seed(account, 1000);
    // One schema's rows: their transitions share the fewest counter rows.
    const { rows } = await pool.query<{ id: string }>(
      `select id from extractions where account_id = $1 and schema_id = $2`,
      [account, seededSchemaId(0)],
    );
    const workers = new pg.Pool({ connectionString: database.url, max: 8 });
    workers.on('error', () => undefined);
    // As the service moves one row per transaction: claimed, then finished or handed back.
    const move = (id: string, to: string) =>
      workers.query(
        `update extractions set status = $2, charged = ($2 = 'completed') where id = $1`,
        [id, to],
      );
    try {
      await Promise.all(rows.map((r) => move(r.id, 'processing')));
      await Promise.all(rows.map((r, i) => move(r.id, ['pending', 'completed', 'failed'][i % 3]!)));
      await Promise.all(rows.filter((_r, i) => i % 3 === 0).map((r) => move(r.id, 'processing')));
    } finally {
      await workers.end();
    }
    expect(await differences()).toEqual([]);
    const { meta } = await listExtractions(
      handle.db,
      account,
      extractionQuery({ status: 'processing' }),
    );
    expect(meta.total).toBe(Math.ceil(rows.length / 3));
  });
});
