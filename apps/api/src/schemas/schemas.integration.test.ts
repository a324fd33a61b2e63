import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { waitFor } from '@xt/testkit';
import { checkResponsesAgainstOpenApi, startTestApi, type TestApi } from '../../test/start-api.ts';

checkResponsesAgainstOpenApi();

const invoice = {
  type: 'object',
  properties: {
    total: { type: 'number', describe: 'grand total', required: true },
    currency: { type: 'string', minLength: '3', describe: 'ISO code' },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } },
    },
  },
};

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function createSchema(name: string, key?: string) {
  const res = await api.request('POST', '/v1/schemas', {
    json: { name, structure: invoice },
    ...(key ? { key } : {}),
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; name: string; createdAt: string };
}

describe('schemas', () => {
  it('creates a schema and returns the structure exactly as submitted', async () => {
    const raw = `{"name":"  Invoice  ","structure":{"type":"object","properties":{"z":{"type":"string","minLength":"3"},"a":{"type":"number"}}}}`;
    const res = await api.request('POST', '/v1/schemas', {
      body: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/v1/schemas/${res.body.data.id}`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8/);
    expect(res.body.status).toBe(true);
    expect(res.body.data.name).toBe('Invoice');
    expect(res.body.data.description).toBeNull();
    expect(JSON.stringify(res.body.data.structure)).toBe(
      '{"type":"object","properties":{"z":{"type":"string","minLength":"3"},"a":{"type":"number"}}}',
    );
    expect(res.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const got = await api.request('GET', `/schemas/${res.body.data.id}`);
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body.data.structure)).toBe(JSON.stringify(res.body.data.structure));
  });

  it('names every invalid field in one 422', async () => {
    const res = await api.request('POST', '/v1/schemas', {
      json: {
        name: '',
        description: 5,
        structure: { type: 'object', properties: { total: { type: 'money', requried: true } } },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.status).toBe(false);
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(['name', 'description', 'structure.properties.total.type']),
    );
    expect(JSON.stringify(res.body.errors)).toMatch(/requried/);
  });

  it('requires name and structure', async () => {
    const res = await api.request('POST', '/v1/schemas', { json: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: expect.any(String) },
        { field: 'structure', message: expect.any(String) },
      ]),
    );
  });

  it('lists newest first with pagination meta, search and date filters', async () => {
    const own = await startTestApi();
    try {
      for (const name of ['Alpha 100%', 'beta_one', 'Gamma', 'alphabet']) {
        const res = await own.request('POST', '/v1/schemas', {
          json: { name, structure: invoice },
        });
        expect(res.status).toBe(201);
      }
      const page1 = await own.request('GET', '/v1/schemas?limit=3');
      expect(page1.status).toBe(200);
      expect(page1.body.data.data.map((s: { name: string }) => s.name)).toEqual([
        'alphabet',
        'Gamma',
        'beta_one',
      ]);
      expect(page1.body.data.meta).toEqual({
        total: 4,
        perPage: 3,
        currentPage: 1,
        lastPage: 2,
        firstPage: 1,
        firstPageUrl: '/?page=1',
        lastPageUrl: '/?page=2',
        nextPageUrl: '/?page=2',
        previousPageUrl: null,
      });
      expect(page1.headers.get('x-request-id')).toBeTruthy();
      const page2 = await own.request('GET', '/v1/schemas?limit=3&page=2');
      expect(page2.body.data.data.map((s: { name: string }) => s.name)).toEqual(['Alpha 100%']);
      expect(page2.body.data.meta.nextPageUrl).toBeNull();
      const past = await own.request('GET', '/v1/schemas?limit=3&page=9');
      expect(past.body.data.data).toEqual([]);
      expect(past.body.data.meta.previousPageUrl).toBe('/?page=8');

      const search = await own.request('GET', '/v1/schemas?search=ALPHA');
      expect(search.body.data.meta.total).toBe(2);
      const literalPercent = await own.request(
        'GET',
        `/v1/schemas?search=${encodeURIComponent('0%')}`,
      );
      expect(literalPercent.body.data.data.map((s: { name: string }) => s.name)).toEqual([
        'Alpha 100%',
      ]);
      const literalUnderscore = await own.request('GET', '/v1/schemas?search=a_o');
      expect(literalUnderscore.body.data.meta.total).toBe(1);

      const today = new Date().toISOString().slice(0, 10);
      const inRange = await own.request('GET', `/v1/schemas?startDate=${today}&endDate=${today}`);
      expect(inRange.body.data.meta.total).toBe(4);
      const before = await own.request('GET', '/v1/schemas?endDate=2001-01-01');
      expect(before.body.data.meta.total).toBe(0);
      const bad = await own.request('GET', '/v1/schemas?page=0&limit=101&startDate=2026-02-30');
      expect(bad.status).toBe(422);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(
        expect.arrayContaining(['page', 'limit', 'startDate']),
      );
    } finally {
      await own.close();
    }
  });

  it('updates with PUT and PATCH and deletes', async () => {
    const s = await createSchema('To change');
    const patched = await api.request('PATCH', `/v1/schemas/${s.id}`, {
      json: { description: 'now described' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.description).toBe('now described');
    expect(patched.body.data.name).toBe('To change');
    const put = await api.request('PUT', `/v1/schemas/${s.id}`, {
      json: {
        name: 'Replaced',
        structure: {
          type: 'array',
          items: { type: 'object', properties: { a: { type: 'string' } } },
        },
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.description).toBeNull();
    expect(put.body.data.structure.type).toBe('array');
    const badPatch = await api.request('PATCH', `/v1/schemas/${s.id}`, {
      json: { structure: { type: 'array' } },
    });
    expect(badPatch.status).toBe(422);
    expect(badPatch.body.errors[0].field).toMatch(/^structure/);
    const del = await api.request('DELETE', `/v1/schemas/${s.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ status: true, message: expect.any(String), data: {} });
    expect((await api.request('DELETE', `/v1/schemas/${s.id}`)).status).toBe(404);
    expect((await api.request('GET', `/v1/schemas/${s.id}`)).status).toBe(404);
  });

  it('keeps accounts apart: another account sees 404 and lists nothing of ours', async () => {
    const s = await createSchema('Private');
    const other = api.keys.other;
    expect((await api.request('GET', `/v1/schemas/${s.id}`, { key: other })).status).toBe(404);
    expect(
      (await api.request('PATCH', `/v1/schemas/${s.id}`, { key: other, json: { name: 'x' } }))
        .status,
    ).toBe(404);
    expect((await api.request('DELETE', `/v1/schemas/${s.id}`, { key: other })).status).toBe(404);
    const list = await api.request('GET', '/v1/schemas?search=Private', { key: other });
    expect(list.body.data.meta.total).toBe(0);
  });
});

describe('auth and envelope', () => {
  it('answers 401 with WWW-Authenticate for a missing or invalid key', async () => {
    const missing = await api.request('GET', '/v1/schemas', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ status: false, message: expect.any(String) });
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const invalid = await api.request('GET', '/schemas', { key: 'sk_live_nope' });
    expect(invalid.status).toBe(401);
  });

  it('answers 401 to a key once it is revoked', async () => {
    const handle = createDb(api.database.url, { max: 1 });
    try {
      const { key } = await createKey(handle.db, { accountName: 'acme', scope: 'write' });
      expect((await api.request('GET', '/v1/schemas', { key })).status).toBe(200);
      await revokeKey(handle.db, key.slice(0, 14));
      // Keys are cached per process; the revocation reaches it by NOTIFY, within a second.
      const revoked = await waitFor(async () => {
        const res = await api.request('GET', '/v1/schemas', { key });
        return res.status === 401 ? res : undefined;
      }, 5_000);
      expect(revoked.status).toBe(401);
      expect(revoked.body).toMatchObject({ status: false, code: 'UNAUTHORIZED' });
    } finally {
      await handle.close();
    }
  });

  it('answers 403 to a read key on a mutating route and lets it read', async () => {
    const res = await api.request('POST', '/v1/schemas', {
      key: api.keys.read,
      json: { name: 'x', structure: invoice },
    });
    expect(res.status).toBe(403);
    expect((await api.request('GET', '/v1/schemas', { key: api.keys.read })).status).toBe(200);
  });

  it('echoes an acceptable x-request-id and replaces a bad one', async () => {
    const mine = await api.request('GET', '/v1/schemas', {
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(mine.headers.get('x-request-id')).toBe('abc-123');
    const long = await api.request('GET', '/v1/schemas', {
      headers: { 'x-request-id': 'x'.repeat(200) },
    });
    expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('maps malformed, oversized and mistyped bodies and unknown routes', async () => {
    const malformed = await api.request('POST', '/v1/schemas', {
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.status).toBe(false);
    const wrongType = await api.request('POST', '/v1/schemas', {
      body: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(wrongType.status).toBe(415);
    const huge = await api.request('POST', '/v1/schemas', {
      json: { name: 'big', structure: invoice, description: 'x'.repeat(600_000) },
    });
    expect(huge.status).toBe(413);
    const notJsonObject = await api.request('POST', '/v1/schemas', { json: [1, 2] });
    expect(notJsonObject.status).toBe(422);
    const unknown = await api.request('GET', '/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: false, code: 'NOT_FOUND' });
    const badId = await api.request('GET', '/v1/schemas/not-a-uuid');
    expect(badId.status).toBe(404);
    const badEncoding = await api.request('GET', '/v1/schemas/%E0%A4%A');
    expect(badEncoding.status).toBe(400);
    expect(badEncoding.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('serves health, readiness and the OpenAPI document without a key', async () => {
    expect((await api.request('GET', '/healthz', { key: null })).status).toBe(200);
    const ready = await api.request('GET', '/readyz', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body.data).toEqual({ postgres: true, redis: true });
    const doc = await api.request('GET', '/openapi.json', { key: null });
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/schemas', '/schemas/{id}', '/extractions', '/extractions/{id}']),
    );
    const metrics = await api.request('GET', '/metrics', { key: null });
    expect(metrics.text).toMatch(/http_request_duration_seconds/);
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After and RateLimit headers past the limit', async () => {
    const limited = await startTestApi({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      for (let i = 0; i < 3; i++)
        expect((await limited.request('GET', '/v1/schemas')).status).toBe(200);
      const res = await limited.request('GET', '/v1/schemas');
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({
        status: false,
        message: expect.stringMatching(/maximum number of requests/i),
      });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
      expect(res.headers.get('ratelimit-reset')).toBeTruthy();
      // Another key has its own budget.
      expect(
        (await limited.request('GET', '/v1/schemas', { key: limited.keys.other })).status,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('schema review settings', () => {
  it('are stored and shown, and their fields must be paths of the structure', async () => {
    const review = { minConfidence: 0.8, fields: ['/total', '/lines/*/qty'], sample: 0.1 };
    const created = await api.request('POST', '/v1/schemas', {
      json: { name: 'Reviewed', structure: invoice, review },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.review).toEqual(review);

    const bad = await api.request('POST', '/v1/schemas', {
      json: { name: 'Bad', structure: invoice, review: { minConfidence: 1.5, fields: ['/nope'] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'review.minConfidence',
    ]);
    const unknownField = await api.request('POST', '/v1/schemas', {
      json: { name: 'Bad', structure: invoice, review: { minConfidence: 0.5, fields: ['/nope'] } },
    });
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.errors).toEqual([
      { field: 'review.fields[0]', message: expect.stringContaining('/nope') },
    ]);

    // A PATCH of the structure alone is checked against the stored review fields.
    const id = created.body.data.id as string;
    const dropped = await api.request('PATCH', `/v1/schemas/${id}`, {
      json: { structure: { type: 'object', properties: { total: { type: 'number' } } } },
    });
    expect(dropped.status).toBe(422);
    expect(dropped.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'review.fields[1]',
    ]);
    const cleared = await api.request('PATCH', `/v1/schemas/${id}`, { json: { review: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).not.toHaveProperty('review');
  });
});
