/**
 * `citations` on create (docs/citations.md#api): taken from JSON, multipart and urlencoded
 * bodies, refused when it is anything but a boolean, stored on the row, part of an
 * Idempotency-Key's request, and shown in the create answer, both records and webhook data only
 * when asked for. Real API, worker, PostgreSQL and Redis; the model stand-in answers.
 */
import type pg from 'pg';
import { describe, expect } from 'vitest';
import { openTestPool } from '@xt/testkit';
import type { TestApi, TestResponse } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '20', WEBHOOK_ALLOWLIST: '127.0.0.1:9' },
});

let db: pg.Pool;
let schemaId: string;
let keyCounter = 0;

test.beforeAll(async ({ api }) => {
  db = openTestPool(api.database.url);
  const res = await api.request('POST', '/v1/schemas', {
    json: {
      name: 'Receipt',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  schemaId = res.body.data.id;
  // An endpoint subscribed to completions, so each one records its event (never delivered:
  // nothing listens on port 9, and only the recorded body is looked at).
  const hook = await api.request('POST', '/v1/webhooks', {
    json: { url: 'http://127.0.0.1:9/hook', events: ['extraction.completed'] },
  });
  expect(hook.status).toBe(201);
}, 120_000);

test.afterAll(() => db?.end());

const fields = (res: TestResponse) =>
  (res.body.errors ?? []).map((e: { field: string }) => e.field).sort();

const text = (source: string) => ({ schema_id: schemaId, type: 'text', source });

function multipart(values: Record<string, string | string[]>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values))
    for (const v of [value].flat()) form.append(name, v);
  return form;
}

const urlencoded = (values: Record<string, string>) => ({
  body: new URLSearchParams(values).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

async function requested(id: string): Promise<boolean> {
  const r = await db.query('select citations_requested from extractions where id = $1', [id]);
  return (r.rows[0] as { citations_requested: boolean }).citations_requested;
}

async function records(api: TestApi, id: string) {
  const single = await api.request('GET', `/v1/extractions/${id}`);
  const list = await api.request('GET', `/v1/extractions?limit=100`);
  const listed = list.body.data.data.find((r: { id: string }) => r.id === id);
  return { single: single.body.data, listed };
}

async function webhookData(id: string) {
  const r = await db.query('select body from webhook_events where extraction_id = $1', [id]);
  expect(r.rows).toHaveLength(1);
  return (JSON.parse((r.rows[0] as { body: string }).body) as { data: Record<string, unknown> })
    .data;
}

describe('citations on create', () => {
  test('refuses anything but a boolean in JSON with a 422 on citations', async ({ api }) => {
    for (const bad of ['true', 1, 0, null, {}, []]) {
      const res = await api.request('POST', '/v1/extractions', {
        json: { ...text('Total 1'), citations: bad },
      });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(fields(res)).toEqual(['citations']);
    }
  });

  test('refuses anything but "true" or "false" in multipart and urlencoded bodies', async ({
    api,
  }) => {
    for (const bad of ['1', 'yes', 'TRUE', 'on', '', ' true']) {
      const form = await api.request('POST', '/v1/extractions', {
        body: multipart({ ...text('Total 1'), citations: bad }),
      });
      expect(form.status, `multipart ${JSON.stringify(bad)}`).toBe(422);
      expect(fields(form)).toEqual(['citations']);
      const encoded = await api.request(
        'POST',
        '/v1/extractions',
        urlencoded({ ...text('Total 1'), citations: bad }),
      );
      expect(encoded.status, `urlencoded ${JSON.stringify(bad)}`).toBe(422);
      expect(fields(encoded)).toEqual(['citations']);
    }
    const twice = await api.request('POST', '/v1/extractions', {
      body: multipart({ ...text('Total 1'), citations: ['true', 'true'] }),
    });
    expect(twice.status).toBe(422);
    expect(fields(twice)).toEqual(['citations']);
  });

  test('is listed with the other problems of the body in one answer', async ({ api }) => {
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', citations: 'yes' },
    });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['citations', 'source']);
  });

  test('is stored on the row from each body type, false by default', async ({ api }) => {
    const cases: [string, Parameters<TestApi['request']>[2], boolean][] = [
      ['json true', { json: { ...text('Total 2'), citations: true } }, true],
      ['json false', { json: { ...text('Total 2'), citations: false } }, false],
      ['json absent', { json: text('Total 2') }, false],
      ['multipart true', { body: multipart({ ...text('Total 2'), citations: 'true' }) }, true],
      ['multipart false', { body: multipart({ ...text('Total 2'), citations: 'false' }) }, false],
      ['urlencoded true', urlencoded({ ...text('Total 2'), citations: 'true' }), true],
      ['urlencoded absent', urlencoded(text('Total 2')), false],
    ];
    for (const [name, options, expected] of cases) {
      const res = await api.request('POST', '/v1/extractions', options);
      expect(res.status, name).toBe(200);
      expect(await requested(res.body.data.id), name).toBe(expected);
    }
  });
});

describe('records', () => {
  test('have no citations key without citations: true, in every shape', async ({ api }) => {
    const res = await api.request('POST', '/v1/extractions', { json: text('Total 3.50') });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['id', 'output', 'status', 'totalTokens']);
    const { single, listed } = await records(api, res.body.data.id);
    expect(single).not.toHaveProperty('citations');
    expect(listed).not.toHaveProperty('citations');
    expect(single).not.toHaveProperty('warnings');
    expect(listed).not.toHaveProperty('warnings');
    expect(await webhookData(res.body.data.id)).not.toHaveProperty('citations');
  });

  test('carry citations in the create answer, both records and webhook data when asked for', async ({
    api,
  }) => {
    const res = await api.request('POST', '/v1/extractions', {
      json: { ...text('Total 4.75'), citations: true },
    });
    expect(res.status).toBe(200);
    const { id } = res.body.data;
    expect(res.body.data.citations).toEqual(expect.any(Object));
    const { single, listed } = await records(api, id);
    expect(single.citations).toEqual(res.body.data.citations);
    expect(listed.citations).toEqual(res.body.data.citations);
    expect((await webhookData(id)).citations).toEqual(res.body.data.citations);
  });

  test('show stored citations and warnings as they are, in the order stored', async ({ api }) => {
    const res = await api.request('POST', '/v1/extractions', {
      json: { ...text('Total: 12.50 EUR'), citations: true },
    });
    const { id } = res.body.data;
    const citations = {
      '/total': {
        grounded: true,
        quote: '12.50',
        page: null,
        boxes: [],
        start: 7,
        end: 12,
        confidence: 0.97,
      },
      '/currency': {
        grounded: false,
        quote: null,
        page: null,
        boxes: [],
        start: null,
        end: null,
        confidence: 0.2,
      },
    };
    const warnings = [
      { code: 'UNGROUNDED_VALUES', path: '/currency', message: '1 value was found nowhere' },
    ];
    await db.query('update extractions set citations = $2, warnings = $3 where id = $1', [
      id,
      JSON.stringify(citations),
      JSON.stringify(warnings),
    ]);
    const { single, listed } = await records(api, id);
    for (const record of [single, listed]) {
      expect(record.citations).toEqual(citations);
      expect(Object.keys(record.citations)).toEqual(['/total', '/currency']);
      expect(record.warnings).toEqual(warnings);
    }
  });
});

describe('the Idempotency-Key request', () => {
  const withKey = (key: string, options: Parameters<TestApi['request']>[2]) => ({
    ...options,
    headers: { ...options?.headers, 'idempotency-key': key },
  });
  const freshKey = () => `citations-${Date.now()}-${++keyCounter}`;

  test('differs with citations: true, and not with false or an absent field', async ({ api }) => {
    const key = freshKey();
    const first = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, { json: text('Total 6') }),
    );
    expect(first.status).toBe(200);
    const same = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, { json: { ...text('Total 6'), citations: false } }),
    );
    expect(same.status).toBe(200);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(same.body.data.id).toBe(first.body.data.id);
    const asked = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, { json: { ...text('Total 6'), citations: true } }),
    );
    expect(asked.status).toBe(422);
    expect(asked.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(fields(asked)).toEqual(['Idempotency-Key']);
  });

  test('is the same for citations: true in JSON and "true" in a form', async ({ api }) => {
    const key = freshKey();
    const first = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, { json: { ...text('Total 7'), citations: true } }),
    );
    expect(first.status).toBe(200);
    const again = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, urlencoded({ ...text('Total 7'), citations: 'true' })),
    );
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.citations).toEqual(first.body.data.citations);
    const without = await api.request(
      'POST',
      '/v1/extractions',
      withKey(key, { body: multipart(text('Total 7')) }),
    );
    expect(without.status).toBe(422);
    expect(without.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});
