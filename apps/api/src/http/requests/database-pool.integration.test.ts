/**
 * The database pool the API (and every process) uses outlasts an event loop held past its
 * connect timeout: the connection made meanwhile is used, where node-postgres's own timer
 * destroyed it and the request was answered 503 (seen while 20 maximum-size JSON bodies were
 * parsed at once). With the loop free it still gives up after the timeout, as the 503 within
 * 3 s of a database outage needs, and a connection that comes too late goes back to the pool.
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, isDatabaseUnavailable } from '@xt/db';
import { createTestDatabase, whileLoopHeld, type TestDatabase } from '@xt/testkit';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

describe('the database pool on a busy event loop', () => {
  it('connects across a loop held past the connect timeout', async () => {
    // The premise, with node-postgres's plain timers alone.
    const plain = new pg.Pool({ connectionString: database.url, connectionTimeoutMillis: 500 });
    plain.on('error', () => undefined);
    try {
      const held = await whileLoopHeld(() => plain.connect(), 1_200);
      await expect(held.started).rejects.toThrow(/timeout/);
    } finally {
      await plain.end();
    }

    const handle = createDb(database.url, { max: 2, connectTimeoutMs: 500 });
    try {
      const held = await whileLoopHeld(() => handle.pool.connect(), 1_200);
      const client = await held.started;
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      client.release();
    } finally {
      await handle.close();
    }
  });

  it('gives up after the timeout with the loop free, and takes back the late connection', async () => {
    const handle = createDb(database.url, { max: 1, connectTimeoutMs: 300 });
    try {
      const first = await handle.pool.connect();
      const refused = await handle.pool.connect().catch((err: unknown) => err);
      expect(isDatabaseUnavailable(refused)).toBe(true);
      first.release();
      // The refused caller's turn came once the first was released; it went back to the pool.
      expect((await handle.db.execute(sql`select 1 as one`)).rows).toEqual([{ one: 1 }]);
      expect(handle.pool.totalCount).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
