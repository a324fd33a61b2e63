/**
 * The service through PgBouncer in transaction pooling mode (Debian's 1.18, which cannot carry
 * named prepared statements): the API and a worker process reach PostgreSQL only through it,
 * with `DB_PREPARED_STATEMENTS=false`; migrations and LISTEN go direct. Creates that wait,
 * asynchronous creates, reads, lists and the reconciler all work, many at once, over three
 * server connections shared by every client connection.
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import {
  openTestPool,
  startModelStandIn,
  startPgBouncer,
  waitFor,
  type AppProcess,
  type ModelStandIn,
  type RunningPgBouncer,
} from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';
import { createInvoiceSchema, insertJoblessExtraction } from '../support/schemas.ts';

let bouncer: RunningPgBouncer;
let model: ModelStandIn;
let api: TestApi;
let worker: AppProcess;
let db: pg.Pool;
let schemaId: string;

beforeAll(async () => {
  model = await startModelStandIn();
  // Built from the test server's address before the database exists: it forwards every name.
  bouncer = await startPgBouncer(inject('testDatabaseAdminUrl'));
  api = await startTestApi(
    { DB_PREPARED_STATEMENTS: 'false', DB_POOL_MAX: '10', EXTRACTION_WAIT_SECONDS: '20' },
    (url) => bouncer.via(url),
  );
  worker = await startTestWorker(api, model.url, {
    DATABASE_URL: bouncer.via(api.database.url),
    DATABASE_DIRECT_URL: api.database.url,
    DB_PREPARED_STATEMENTS: 'false',
    RECONCILE_INTERVAL_MS: '500',
    RECONCILE_AFTER_MS: '1000',
  });
  db = openTestPool(api.database.url);
  schemaId = await createInvoiceSchema(api);
});

afterAll(async () => {
  await worker?.stop();
  await db?.end();
  await api?.close();
  await bouncer?.stop();
  await model?.close();
});

it('creates and waits, reads and lists, many at once, through the pooler', async () => {
  const created = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      api.request('POST', '/v1/extractions', {
        json: { schema_id: schemaId, type: 'text', source: `Total: ${i}` },
      }),
    ),
  );
  expect(created.map((r) => r.status)).toEqual(created.map(() => 200));
  expect(new Set(created.map((r) => r.body.data.status))).toEqual(new Set(['completed']));
  const reads = await Promise.all(
    created.map((r) => api.request('GET', `/v1/extractions/${r.body.data.id}`)),
  );
  expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
  const list = await api.request('GET', '/v1/extractions?limit=10&status=completed');
  expect(list.status).toBe(200);
  expect(list.body.data.meta.total).toBe(30);
  expect(list.body.data.data).toHaveLength(10);
});

it('finishes asynchronous creates, polled', async () => {
  const res = await api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source: 'Total: 7' },
    headers: { prefer: 'respond-async' },
  });
  expect(res.status).toBe(202);
  const id = res.body.data.id as string;
  await waitFor(
    async () =>
      (await api.request('GET', `/v1/extractions/${id}`)).body.data.status === 'completed',
  );
});

it('lets the reconciler give a job to a row that never got one', async () => {
  const id = '6a0c7a3e-8d6b-4c1e-9a2f-0b1c2d3e4f51';
  await insertJoblessExtraction(db, schemaId, id);
  await waitFor(
    async () =>
      (await api.request('GET', `/v1/extractions/${id}`)).body.data.status === 'completed',
  );
});
