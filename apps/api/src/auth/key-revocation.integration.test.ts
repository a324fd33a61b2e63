/**
 * The key cache across two API processes (this one and a replica on the same database): keys
 * are served from each process's cache, and a revocation committed anywhere reaches both
 * through LISTEN/NOTIFY, long before the cache's TTL (an hour here) would end it.
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKey, revokeKey } from '@xt/accounts';
import { createDb, type DbHandle } from '@xt/db';
import { openTestPool, waitFor } from '@xt/testkit';
import { startApiReplica, startTestApi, type TestApi } from '../../test/start-api.ts';

const ENV = { KEY_CACHE_TTL_SECONDS: '3600' };

let api: TestApi;
let replica: Awaited<ReturnType<typeof startApiReplica>>;
let handle: DbHandle;
let pool: pg.Pool;

beforeAll(async () => {
  api = await startTestApi(ENV);
  replica = await startApiReplica(api, ENV);
  handle = createDb(api.database.url, { max: 2 });
  pool = openTestPool(api.database.url);
});

afterAll(async () => {
  await replica?.close();
  await handle?.close();
  await pool?.end();
  await api?.close();
});

const processes = () => [api.url, replica.url];

async function statuses(key: string): Promise<number[]> {
  return Promise.all(
    processes().map(async (via) => (await api.request('GET', '/v1/schemas', { key, via })).status),
  );
}

async function newKey(): Promise<{ key: string; id: string }> {
  const created = await createKey(handle.db, { accountName: 'acme', scope: 'read' });
  expect(await statuses(created.key)).toEqual([200, 200]);
  return created;
}

/** A change the trigger does not announce: only a cache explains a key that keeps working. */
async function revokeUnannounced(id: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('alter table api_keys disable trigger api_keys_changed');
    await client.query('update api_keys set revoked_at = now() where id = $1', [id]);
    await client.query('alter table api_keys enable trigger api_keys_changed');
    await client.query('commit');
  } finally {
    client.release();
  }
}

it('serves known keys from each process cache', async () => {
  const { key, id } = await newKey();
  await revokeUnannounced(id);
  expect(await statuses(key)).toEqual([200, 200]);
});

it('ends a revoked key in every process as soon as the revocation commits', async () => {
  const { key, id } = await newKey();
  // As `npm run keys -- revoke` does, from neither API process.
  await revokeKey(handle.db, id);
  await waitFor(async () => (await statuses(key)).every((s) => s === 401));
});

it('ends a key deleted by hand in every process', async () => {
  const { key, id } = await newKey();
  await pool.query('delete from api_keys where id = $1', [id]);
  await waitFor(async () => (await statuses(key)).every((s) => s === 401));
});

it('forgets every cached key when the revocations could not be heard', async () => {
  const { key, id } = await newKey();
  await revokeUnannounced(id);
  // The listening connections drop; whatever was announced meanwhile is lost to them.
  await pool.query(
    `select pg_terminate_backend(pid) from pg_stat_activity
     where application_name = 'api-key-revocations' and datname = current_database()`,
  );
  await waitFor(async () => (await statuses(key)).every((s) => s === 401));
  // And they listen again: the next revocation is heard.
  await waitFor(async () => {
    const { rows } = await pool.query(
      `select count(*)::int n from pg_stat_activity
       where application_name = 'api-key-revocations' and datname = current_database()`,
    );
    return rows[0].n === 2;
  });
  const next = await newKey();
  await revokeKey(handle.db, next.id);
  await waitFor(async () => (await statuses(next.key)).every((s) => s === 401));
});
