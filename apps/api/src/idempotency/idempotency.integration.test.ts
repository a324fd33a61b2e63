/**
 * Idempotency-Key end to end: the real API (in this process and as a second process), a real
 * worker, real PostgreSQL and Redis, and the model stand-in counting how often it was asked.
 */
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startModelStandIn,
  waitFor,
  type AppProcess,
  type ModelStandIn,
  openTestPool,
} from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startApiReplica,
  startTestApi,
  startTestWorker,
  type RequestOptions,
  type TestApi,
} from '../../test/start-api.ts';
import { sweepExpiredKeys } from './sweep.ts';
import { createDb } from '@xt/db';

checkResponsesAgainstOpenApi();

const structure = { type: 'object', properties: { total: { type: 'number' } } };

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let replica: Awaited<ReturnType<typeof startApiReplica>>;
let db: pg.Pool;
let schemaId: string;
let counter = 0;

/** A key no other test uses. */
const freshKey = () => `key-${Date.now()}-${++counter}`;

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi({ EXTRACTION_WAIT_SECONDS: '20' });
  [worker, replica] = await Promise.all([
    startTestWorker(api, model.url, { RECONCILE_INTERVAL_MS: '500', RECONCILE_AFTER_MS: '1000' }),
    startApiReplica(api),
  ]);
  db = openTestPool(api.database.url);
  const res = await api.request('POST', '/v1/schemas', { json: { name: 'Idem', structure } });
  schemaId = res.body.data.id;
});

afterAll(async () => {
  await worker?.stop();
  await replica?.close();
  await db?.end();
  await api?.close();
  await model?.close();
});

beforeEach(() => model.reset());

function withKey(key: string, options: RequestOptions = {}): RequestOptions {
  return { ...options, headers: { ...options.headers, 'idempotency-key': key } };
}

async function count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const r = await db.query(`select count(*)::int as n from ${table} where ${where}`, params);
  return (r.rows[0] as { n: number }).n;
}

const text = (source: string) => ({ schema_id: schemaId, type: 'text', source });

describe('the Idempotency-Key header', () => {
  it('is refused with a 422 on the header when empty, too long or not printable ASCII', async () => {
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const res = await api.request('POST', '/v1/schemas', {
        ...withKey(bad),
        json: { name: 'n', structure },
      });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    }
    const longest = await api.request('POST', '/v1/schemas', {
      ...withKey('k'.repeat(255)),
      json: { name: 'longest key', structure },
    });
    expect(longest.status).toBe(201);
    // Listed beside the body's own problems, in one answer.
    const both = await api.request('POST', '/v1/extractions', withKey('', { json: {} }));
    expect(both.status).toBe(422);
    expect(both.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'Idempotency-Key',
      'schema_id',
      'source',
      'type',
    ]);
  });

  it('replays a schema create: same id, 201, one row, the schema as it is now', async () => {
    const key = freshKey();
    const body = { name: 'Replayed', structure };
    const first = await api.request('POST', '/v1/schemas', withKey(key, { json: body }));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const id = first.body.data.id as string;
    await api.request('PATCH', `/v1/schemas/${id}`, { json: { description: 'edited later' } });

    // Without the version segment it is the same route, so the same request.
    const again = await api.request('POST', '/schemas', withKey(key, { json: body }));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(`/v1/schemas/${id}`);
    expect(again.body.data).toMatchObject({ id, name: 'Replayed', description: 'edited later' });
    expect(await count('schemas', 'name = $1', ['Replayed'])).toBe(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for a different body or another route', async () => {
    const key = freshKey();
    await api.request('POST', '/v1/schemas', withKey(key, { json: { name: 'A', structure } }));
    const other = await api.request(
      'POST',
      '/v1/schemas',
      withKey(key, { json: { name: 'B', structure } }),
    );
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      status: false,
      code: 'IDEMPOTENCY_KEY_REUSED',
      errors: [{ field: 'Idempotency-Key', message: expect.any(String) }],
    });
    const route = await api.request('POST', '/v1/extractions', withKey(key, { json: text('x') }));
    expect(route.status).toBe(422);
    expect(route.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count('schemas', 'name = $1', ['B'])).toBe(0);
    expect(await count('extractions', 'source = $1', ['x'])).toBe(0);
  });

  it('is scoped to the account: another account using the same key gets its own resource', async () => {
    const key = freshKey();
    const body = { json: { name: 'Scoped', structure } };
    const mine = await api.request('POST', '/v1/schemas', withKey(key, body));
    const theirs = await api.request('POST', '/v1/schemas', {
      ...withKey(key, body),
      key: api.keys.other,
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('does not remember a key whose request was refused', async () => {
    const key = freshKey();
    const refused = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, { json: { ...text('y'), schema_id: '00000000-0000-4000-8000-000000000000' } }),
    );
    expect(refused.status).toBe(422);
    const fixed = await api.request('POST', '/v1/extractions', withKey(key, { json: text('y') }));
    expect(fixed.status).toBe(200);
  });
});

describe('replaying an extraction create', () => {
  it('answers a completed extraction with 200 and its output, without a second job or charge', async () => {
    const key = freshKey();
    const first = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, { json: text('done') }),
    );
    expect(first.status).toBe(200);
    // The same fields as a multipart form are the same request.
    const form = new FormData();
    for (const [k, v] of Object.entries(text('done'))) form.append(k, v);
    const again = await api.request('POST', '/extractions', withKey(key, { body: form }));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect(model.requests).toHaveLength(1);
    expect(await count('extractions', 'source = $1', ['done'])).toBe(1);
  });

  it('answers a running extraction with 202 or waits for it as Prefer asks', async () => {
    const key = freshKey();
    model.behave({ delayMs: 3000 });
    const opts = (prefer: string) => withKey(key, { json: text('slow'), headers: { prefer } });
    const accepted = await api.request('POST', '/v1/extractions', opts('respond-async'));
    expect(accepted.status).toBe(202);
    const id = accepted.body.data.id as string;

    const stillRunning = await api.request('POST', '/v1/extractions', opts('respond-async'));
    expect(stillRunning.status).toBe(202);
    expect(stillRunning.headers.get('idempotent-replayed')).toBe('true');
    expect(stillRunning.headers.get('location')).toBe(`/v1/extractions/${id}`);
    expect(stillRunning.body.data.id).toBe(id);

    const waited = await api.request('POST', '/v1/extractions', opts('wait=30'));
    expect(waited.status).toBe(200);
    expect(waited.headers.get('preference-applied')).toBe('wait=30');
    expect(waited.headers.get('idempotent-replayed')).toBe('true');
    expect(waited.body.data).toMatchObject({ id, status: 'completed' });
    expect(model.requests).toHaveLength(1);
    const charged = await db.query('select charged from extractions where id = $1', [id]);
    expect(charged.rows).toEqual([{ charged: true }]);
  });

  it('replays a failed extraction as the same error', async () => {
    const key = freshKey();
    model.behave({ refuse: 'no' });
    const first = await api.request('POST', '/v1/extractions', withKey(key, { json: text('no') }));
    expect(first.status).toBe(502);
    const again = await api.request('POST', '/v1/extractions', withKey(key, { json: text('no') }));
    expect(again.status).toBe(502);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('says so when the extraction the key created was deleted', async () => {
    const key = freshKey();
    const first = await api.request('POST', '/v1/extractions', withKey(key, { json: text('del') }));
    await api.request('DELETE', `/v1/extractions/${first.body.data.id}`);
    const again = await api.request('POST', '/v1/extractions', withKey(key, { json: text('del') }));
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ status: false, code: 'NOT_FOUND' });
  });

  it('creates one extraction for concurrent duplicates sent to two API processes', async () => {
    const key = freshKey();
    model.behave({ delayMs: 500 });
    const send = (i: number) =>
      api.request(
        'POST',
        '/v1/extractions',
        withKey(key, {
          json: text('concurrent'),
          headers: { prefer: 'wait=30' },
          ...(i % 2 === 1 ? { via: replica.url } : {}),
        }),
      );
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i)));
    const ids = new Set(answers.map((a) => a.body.data?.id as string));
    expect(ids.size).toBe(1);
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(11);
    expect(await count('extractions', 'source = $1', ['concurrent'])).toBe(1);
    expect(model.requests).toHaveLength(1);
  });

  it('charges once when the API process dies while the client waits and the client retries', async () => {
    const doomed = await startApiReplica(api);
    const key = freshKey();
    model.behave({ delayMs: 2000 });
    const waiting = api
      .request('POST', '/v1/extractions', withKey(key, { json: text('crash'), via: doomed.url }))
      .then(
        () => 'answered',
        () => 'connection lost',
      );
    await waitFor(() => model.requests.length === 1);
    await doomed.process.stop('SIGKILL');
    expect(await waiting).toBe('connection lost');

    const retried = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, { json: text('crash') }),
    );
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.data.status).toBe('completed');
    const rows = await db.query('select charged from extractions where source = $1', ['crash']);
    expect(rows.rows).toEqual([{ charged: true }]);
    expect(model.requests).toHaveLength(1);
  });
});

describe('expiry', () => {
  it('forgets a key past its expiry and the sweep removes it', async () => {
    const key = freshKey();
    const body = { json: { name: 'Expiring', structure } };
    const first = await api.request('POST', '/v1/schemas', withKey(key, body));
    const expiry = await db.query(
      `select extract(epoch from expires_at - created_at) / 3600 as hours
       from idempotency_keys where key = $1`,
      [key],
    );
    expect(Number((expiry.rows[0] as { hours: string }).hours)).toBe(24);

    await db.query(
      `update idempotency_keys set expires_at = now() - interval '1 second' where key = $1`,
      [key],
    );
    const fresh = await api.request('POST', '/v1/schemas', withKey(key, body));
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(fresh.body.data.id).not.toBe(first.body.data.id);

    await db.query(
      `update idempotency_keys set expires_at = now() - interval '1 second' where key = $1`,
      [key],
    );
    const handle = createDb(api.database.url, { max: 1 });
    try {
      expect(await sweepExpiredKeys(handle.db)).toBeGreaterThanOrEqual(1);
    } finally {
      await handle.close();
    }
    expect(await count('idempotency_keys', 'key = $1', [key])).toBe(0);
  });
});
