/**
 * Extractions end to end: the real API in this process, real worker processes, real PostgreSQL
 * and Redis, and the model stand-in (the only thing not real) recording what reached it.
 */
import { Queue } from 'bullmq';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXTRACT_JOB, EXTRACTION_QUEUE } from '@xt/queue';
import {
  startModelStandIn,
  testRedisUrl,
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
  type TestApi,
} from '@xt/api/testing';
import { insertJoblessExtraction } from '../support/schemas.ts';

checkResponsesAgainstOpenApi();

const structure = {
  type: 'object',
  properties: {
    vendor: { type: 'string', describe: 'who issued the invoice', required: true },
    total: { type: 'number', describe: 'grand total' },
    currency: { type: 'string', enum: ['EUR', 'USD'] },
  },
};

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let db: pg.Pool;
let schemaId: string;

const startWorker = () =>
  startTestWorker(api, model.url, {
    JOB_ATTEMPTS: '3',
    MODEL_TIMEOUT_MS: '20000',
    RECONCILE_INTERVAL_MS: '500',
    RECONCILE_AFTER_MS: '1000',
  });

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi({
    JOB_ATTEMPTS: '3',
    JOB_BACKOFF_MS: '50',
    EXTRACTION_WAIT_SECONDS: '20',
  });
  worker = await startWorker();
  db = openTestPool(api.database.url);
  const res = await api.request('POST', '/v1/schemas', { json: { name: 'Invoice v1', structure } });
  schemaId = res.body.data.id;
});

afterAll(async () => {
  await worker?.stop();
  await db?.end();
  await api?.close();
  await model?.close();
});

beforeEach(() => {
  model.reset();
});

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function row(id: string) {
  const r = await db.query(
    'select status, charged, total_tokens, error_code, attempts from extractions where id = $1',
    [id],
  );
  return r.rows[0] as
    | {
        status: string;
        charged: boolean;
        total_tokens: string;
        error_code: string | null;
        attempts: number;
      }
    | undefined;
}

async function poll(id: string) {
  return waitFor(async () => {
    const res = await api.request('GET', `/v1/extractions/${id}`);
    return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
  }, 30_000);
}

describe('creating extractions', () => {
  it('extracts text synchronously from a multipart form and shows what reached the model', async () => {
    const res = await api.request('POST', '/v1/extractions', {
      body: form({
        schema_id: schemaId,
        type: 'text',
        source: 'Invoice from ACME, total 12.50 EUR',
        instruction: 'Amounts in euros.',
      }),
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    const data = res.body.data;
    expect(data).toMatchObject({ id: expect.any(String), status: 'completed' });
    expect(typeof data.totalTokens).toBe('number');
    expect(data.totalTokens).toBeGreaterThan(0);
    expect(typeof data.output.vendor).toBe('string');
    expect(Object.keys(data.output)).toEqual(['vendor', 'total', 'currency']);

    expect(model.requests).toHaveLength(1);
    const sent = model.requests[0]!;
    expect(sent.model).toBe('gpt-4.1');
    expect(sent.text).toContain('Invoice from ACME, total 12.50 EUR');
    expect(sent.text).toContain('Amounts in euros.');
    expect(sent.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['vendor', 'total', 'currency'],
    });

    const single = await api.request('GET', `/v1/extractions/${data.id}`);
    expect(single.body.data).toMatchObject({
      id: data.id,
      schemaId,
      source: { type: 'text', content: 'Invoice from ACME, total 12.50 EUR' },
      result: data.output,
      status: 'completed',
      totalTokens: data.totalTokens,
      charged: true,
      error: null,
    });
    const list = await api.request('GET', `/extractions?schema_id=${schemaId}&status=completed`);
    const record = list.body.data.data.find((r: { id: string }) => r.id === data.id);
    expect(record).toMatchObject({
      charged: true,
      input: {
        schema_id: schemaId,
        type: 'text',
        source: 'Invoice from ACME, total 12.50 EUR',
        instruction: 'Amounts in euros.',
      },
      output: data.output,
      status: 'completed',
      totalTokens: String(data.totalTokens),
      error: null,
    });
  });

  it('takes JSON and urlencoded bodies, uses the chosen model, and omits an absent instruction', async () => {
    const json = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'a', model: 'gpt-4.1-mini' },
    });
    expect(json.status).toBe(200);
    expect(model.requests[0]!.model).toBe('gpt-4.1-mini');
    const encoded = await api.request('POST', '/extractions', {
      body: new URLSearchParams({ schema_id: schemaId, type: 'text', source: 'b' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(encoded.status).toBe(200);
    const list = await api.request('GET', '/v1/extractions?limit=100');
    const record = list.body.data.data.find((r: { id: string }) => r.id === encoded.body.data.id);
    expect(record.input).toEqual({ schema_id: schemaId, type: 'text', source: 'b' });
  });

  it('validates every field and the content type', async () => {
    const empty = await api.request('POST', '/v1/extractions', { body: form({}) });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'schema_id',
      'source',
      'type',
    ]);
    const bad = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: '00000000-0000-4000-8000-000000000000',
        type: 'pdf',
        source: 'http://127.0.0.1/x.pdf',
        model: 'gpt-5',
      },
    });
    expect(bad.status).toBe(422);
    // a refused create names an unknown schema_id beside the other fields (hostile-input tests)
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'model',
      'schema_id',
      'source',
    ]);
    const unknownSchema = await api.request('POST', '/v1/extractions', {
      json: { schema_id: '00000000-0000-4000-8000-000000000000', type: 'text', source: 'x' },
    });
    expect(unknownSchema.status).toBe(422);
    expect(unknownSchema.body.errors).toEqual([
      { field: 'schema_id', message: expect.any(String) },
    ]);
    const otherAccount = await api.request('POST', '/v1/extractions', {
      key: api.keys.other,
      json: { schema_id: schemaId, type: 'text', source: 'x' },
    });
    expect(otherAccount.status).toBe(422);
    const blank = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: '   ' },
    });
    expect(blank.body.errors).toEqual([{ field: 'source', message: expect.any(String) }]);
    const notUrl = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'webpage', source: 'ftp://example.com/' },
    });
    expect(notUrl.body.errors[0].field).toBe('source');
    const text = await api.request('POST', '/v1/extractions', {
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    // A file part for a webpage is refused (uploads of each type: uploads.test.ts).
    const withFile = new FormData();
    withFile.append('schema_id', schemaId);
    withFile.append('type', 'webpage');
    withFile.append('source', new Blob(['<p>hi</p>'], { type: 'text/html' }), 'a.html');
    const upload = await api.request('POST', '/v1/extractions', { body: withFile });
    expect(upload.status).toBe(422);
    expect(upload.body.errors[0].field).toBe('source');
    const readOnly = await api.request('POST', '/v1/extractions', {
      key: api.keys.read,
      json: { schema_id: schemaId, type: 'text', source: 'x' },
    });
    expect(readOnly.status).toBe(403);
  });
});

describe('waiting and 202', () => {
  it('answers 202 at once for Prefer: respond-async, then the record completes', async () => {
    model.behave({ delayMs: 800 });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'async please' },
      headers: { prefer: 'respond-async' },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('preference-applied')).toBe('respond-async');
    expect(res.headers.get('location')).toBe(`/v1/extractions/${res.body.data.id}`);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      status: 'pending',
      output: null,
      totalTokens: 0,
    });
    const pending = await api.request('GET', '/v1/extractions?status=pending');
    const listed = pending.body.data.data.find((r: { id: string }) => r.id === res.body.data.id);
    if (listed) expect(listed).toMatchObject({ charged: false, output: null, totalTokens: '0' });
    const done = await poll(res.body.data.id);
    expect(done.status).toBe('completed');
    expect(done.charged).toBe(true);
  });

  it('honours Prefer: wait=N and answers 202 when the model is slower', async () => {
    model.behave({ delayMs: 3_000 });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'slow' },
      headers: { prefer: 'wait=1' },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('preference-applied')).toBe('wait=1');
    expect(['pending', 'processing']).toContain(res.body.data.status);
    expect((await poll(res.body.data.id)).status).toBe('completed');
  });

  it('a request held by another API process gets the result a worker process finished', async () => {
    const replica = await startApiReplica(api);
    try {
      model.behave({ delayMs: 700 });
      const res = await api.request('POST', '/v1/extractions', {
        json: { schema_id: schemaId, type: 'text', source: 'via the replica' },
        via: replica.url,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('completed');
      const seen = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
      expect(seen.body.data.status).toBe('completed');
    } finally {
      await replica.close();
    }
  });

  it('keeps extracting when the waiting client disconnects, and leaves no listener behind', async () => {
    model.behave({ delayMs: 1_500 });
    const controller = new AbortController();
    const pending = fetch(`${api.url}/v1/extractions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.keys.write}`, 'content-type': 'application/json' },
      body: JSON.stringify({ schema_id: schemaId, type: 'text', source: 'walk away' }),
      signal: controller.signal,
    });
    await waitFor(() => model.requests.length > 0);
    controller.abort();
    await expect(pending).rejects.toThrow();
    const found = await waitFor(async () => {
      const list = await api.request('GET', '/v1/extractions?status=completed&limit=100');
      return list.body.data.data.find(
        (r: { input: { source: string } }) => r.input.source === 'walk away',
      );
    });
    expect(found.charged).toBe(true);
    const metrics = await api.request('GET', '/metrics', { key: null });
    expect(metrics.text).toMatch(/^extraction_waiting_requests 0$/m);
  });
});

describe('failures', () => {
  it('a refusal fails at once with 502 MODEL_REFUSED and the extraction id', async () => {
    model.behave({ refuse: 'I cannot help with that.' });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'refuse me' },
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      status: false,
      code: 'MODEL_REFUSED',
      extractionId: expect.any(String),
    });
    const single = await api.request('GET', `/v1/extractions/${res.body.extractionId}`);
    expect(single.body.data).toMatchObject({
      status: 'failed',
      charged: false,
      result: null,
      error: { code: 'MODEL_REFUSED', message: expect.any(String) },
    });
    expect(model.requests).toHaveLength(1);
  });

  it('retries 429 and 5xx from the model and then completes, charging once', async () => {
    model.behave([{ status: 429 }, { status: 500 }]);
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'flaky' },
    });
    expect(res.status).toBe(200);
    expect(model.requests).toHaveLength(3);
    const r = await row(res.body.data.id);
    expect(r).toMatchObject({ status: 'completed', charged: true, attempts: 3 });
    expect(Number(r!.total_tokens)).toBe(res.body.data.totalTokens);
  });

  it('gives up with MODEL_UNAVAILABLE (502) when every attempt fails', async () => {
    model.behave([{ status: 503 }, { status: 503 }, { status: 503 }]);
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'down' },
    });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('MODEL_UNAVAILABLE');
    expect(await row(res.body.extractionId)).toMatchObject({
      status: 'failed',
      charged: false,
      error_code: 'MODEL_UNAVAILABLE',
    });
  });

  it('repairs an off-schema answer, and fails with OUTPUT_INVALID after two repairs, recording the tokens', async () => {
    model.behave({ content: '{"vendor": 5}' });
    const repaired = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'repair' },
    });
    expect(repaired.status).toBe(200);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.text).toMatch(/vendor/);

    model.reset();
    model.behave([{ content: 'not json' }, { content: '{"vendor": null}' }, { content: '[]' }]);
    const invalid = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'hopeless' },
    });
    expect(invalid.status).toBe(502);
    expect(invalid.body.code).toBe('OUTPUT_INVALID');
    expect(model.requests).toHaveLength(3);
    const r = await row(invalid.body.extractionId);
    expect(r).toMatchObject({ status: 'failed', charged: false });
    expect(Number(r!.total_tokens)).toBeGreaterThan(0);
  });
});

describe('lifecycle', () => {
  it('deleting during processing removes the record and nothing is written or charged afterwards', async () => {
    model.behave({ delayMs: 2_000 });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'delete me' },
      headers: { prefer: 'respond-async' },
    });
    const id = res.body.data.id as string;
    // Deleted while the model call is in flight (a delete during preparation is another case:
    // the worker then makes no model call at all).
    await waitFor(() => model.requests.length === 1);
    expect((await row(id))?.status).toBe('processing');
    const del = await api.request('DELETE', `/v1/extractions/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({});
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await row(id)).toBeUndefined();
    expect((await api.request('GET', `/v1/extractions/${id}`)).status).toBe(404);
    expect((await api.request('DELETE', `/v1/extractions/${id}`)).status).toBe(404);
  });

  it('deleting a waiting job removes it from the queue', async () => {
    await worker.stop();
    try {
      const res = await api.request('POST', '/v1/extractions', {
        json: { schema_id: schemaId, type: 'text', source: 'never run' },
        headers: { prefer: 'respond-async' },
      });
      const id = res.body.data.id as string;
      const queue = new Queue(EXTRACTION_QUEUE, {
        connection: { url: testRedisUrl() },
        prefix: api.prefix,
      });
      expect(await queue.getJob(id)).toBeDefined();
      expect((await api.request('DELETE', `/v1/extractions/${id}`)).status).toBe(200);
      expect(await queue.getJob(id)).toBeUndefined();
      await queue.close();
    } finally {
      worker = await startWorker();
    }
  });

  it('a duplicate delivery of the same extraction charges once', async () => {
    model.behave([{ delayMs: 1_000 }, { delayMs: 1_000 }]);
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'twice' },
      headers: { prefer: 'respond-async' },
    });
    const id = res.body.data.id as string;
    // A second job for the same extraction, as a redelivery would produce.
    const queue = new Queue(EXTRACTION_QUEUE, {
      connection: { url: testRedisUrl() },
      prefix: api.prefix,
    });
    await queue.add(EXTRACT_JOB, { extractionId: id }, { jobId: `${id}-again` });
    const done = await poll(id);
    await waitFor(async () => (await queue.getJob(`${id}-again`))?.isCompleted());
    expect(done.status).toBe('completed');
    const r = await row(id);
    expect(r?.charged).toBe(true);
    expect(Number(r!.total_tokens)).toBe(done.totalTokens);
    // After completion, yet another delivery changes nothing.
    await queue.add(EXTRACT_JOB, { extractionId: id }, { jobId: `${id}-late` });
    await waitFor(async () => (await queue.getJob(`${id}-late`))?.isCompleted());
    expect(await row(id)).toEqual(r);
    await queue.close();
  });

  it('an extraction keeps the schema it was created with when the schema changes or goes', async () => {
    const created = await api.request('POST', '/v1/schemas', {
      json: { name: 'Snapshot Test', structure },
    });
    const sid = created.body.data.id as string;
    model.behave({ delayMs: 1_500 });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: sid, type: 'text', source: 'snapshot' },
      headers: { prefer: 'respond-async' },
    });
    await api.request('PATCH', `/v1/schemas/${sid}`, {
      json: {
        name: 'Renamed',
        structure: { type: 'object', properties: { other: { type: 'string' } } },
      },
    });
    const done = await poll(res.body.data.id);
    expect(Object.keys(done.result)).toEqual(['vendor', 'total', 'currency']);
    expect(JSON.stringify(model.requests[0]!.schema)).toContain('vendor');
    await api.request('DELETE', `/v1/schemas/${sid}`);
    const stillThere = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(stillThere.body.data.schemaId).toBe(sid);
    const byOldName = await api.request('GET', '/v1/extractions?search=snapshot%20TEST');
    expect(byOldName.body.data.data.map((r: { id: string }) => r.id)).toContain(res.body.data.id);
    const afterDelete = await api.request('POST', '/v1/extractions', {
      json: { schema_id: sid, type: 'text', source: 'x' },
    });
    expect(afterDelete.status).toBe(422);
  });

  it('the reconciler enqueues a pending extraction whose job never reached Redis', async () => {
    const id = '5f0c7a3e-8d6b-4c1e-9a2f-0b1c2d3e4f50';
    await insertJoblessExtraction(db, schemaId, id);
    const done = await poll(id);
    expect(done.status).toBe('completed');
  });

  it('keeps other accounts out', async () => {
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'mine' },
    });
    const id = res.body.data.id as string;
    expect(
      (await api.request('GET', `/v1/extractions/${id}`, { key: api.keys.other })).status,
    ).toBe(404);
    expect(
      (await api.request('DELETE', `/v1/extractions/${id}`, { key: api.keys.other })).status,
    ).toBe(404);
    const list = await api.request('GET', '/v1/extractions', { key: api.keys.other });
    expect(list.body.data.meta.total).toBe(0);
    expect((await api.request('GET', '/v1/extractions?status=done')).status).toBe(422);
  });
});
