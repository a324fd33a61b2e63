/**
 * The extraction list on a table PostgreSQL has no statistics for: right after a restore or a
 * bulk load, or on a server whose autovacuum is off. The planner then guesses how many rows an
 * account has, and a plan that depends on the guess may read and sort every row of the account.
 * Every list page must walk a list index in order instead, whatever the guess, so a page costs
 * the same at 30,000 rows as at 1,000.
 */
import type pg from 'pg';
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

const BIG = '00000000-0000-4000-8000-0000000000d1';
const SMALL = '00000000-0000-4000-8000-0000000000d2';

let database: TestDatabase;
let pool: pg.Pool;
let handle: DbHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = openTestPool(database.url);
  handle = createDb(database.url, { max: 2 });
  // Nothing may gather statistics behind the test's back.
  await pool.query('alter table extractions set (autovacuum_enabled = false)');
  await pool.query(`insert into accounts (id, name) values ($1, 'big'), ($2, 'small')`, [
    BIG,
    SMALL,
  ]);
  await seedExtractions(pool, BIG, 30_000);
  await seedExtractions(pool, SMALL, 1_000);
});

afterAll(async () => {
  await handle?.close();
  await pool?.end();
  await database?.drop();
});

const FILTERS: Record<string, Record<string, string>> = {
  'first page': {},
  'page 20': { page: '20' },
  'status=failed': { status: 'failed' },
  'status=completed, page 20': { status: 'completed', page: '20' },
  schema_id: { schema_id: seededSchemaId(3) },
  'schema_id, page 20': { schema_id: seededSchemaId(3), page: '20' },
  search: { search: 'schema 3' },
  'search, page 20': { search: 'schema 3', page: '20' },
};

it('runs on a table without statistics', async () => {
  const { rows } = await pool.query<{ n: string }>(
    `select count(*) n from pg_stats where tablename = 'extractions'`,
  );
  expect(Number(rows[0]!.n)).toBe(0);
});

describe.each(Object.entries(FILTERS))('the list, %s', (_name, params) => {
  it('walks a list index in order: no sort, and the big account costs what the small one does', async () => {
    const q = extractionQuery(params);
    const read = async (accountId: string) => {
      const { rows, setting } = await pageStatements(handle.db, accountId, q);
      const plan = await explain(pool, rows, setting);
      const types = nodes(plan).map((n) => n['Node Type']);
      expect(types).not.toContainEqual(expect.stringMatching(/Seq Scan|Bitmap|Sort$/));
      return pagesRead(plan);
    };
    const big = await read(BIG);
    const small = await read(SMALL);
    console.log(`${_name}: ${big} pages read at 30,000 rows, ${small} at 1,000`);
    expect(big).toBeLessThanOrEqual(Math.max(2 * small, 60));
    // And the page is the one asked for.
    const { rows } = await listExtractions(handle.db, BIG, q);
    expect(rows.length).toBe(q.limit);
  });
});

it('still has no statistics at the end', async () => {
  const { rows } = await pool.query<{ n: string }>(
    `select count(*) n from pg_stats where tablename = 'extractions'`,
  );
  expect(Number(rows[0]!.n)).toBe(0);
});
