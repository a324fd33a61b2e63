/**
 * Metadata on extractions: stored, returned in both record shapes, taken from JSON, multipart and
 * urlencoded bodies, and never given to the model (the stand-in records everything it receives).
 */
import { describe, expect } from 'vitest';
import type { TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

const test = stackTest({ api: { EXTRACTION_WAIT_SECONDS: '20' } });

let schemaId: string;

test.beforeAll(async ({ api }) => {
  const res = await api.request('POST', '/v1/schemas', {
    json: {
      name: 'Receipt',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  schemaId = res.body.data.id;
});

test.beforeEach(({ model }) => model.reset());

const fields = (res: { body: { errors?: { field: string }[] } }) =>
  (res.body.errors ?? []).map((e) => e.field).sort();

async function records(api: TestApi, id: string) {
  const single = await api.request('GET', `/v1/extractions/${id}`);
  const list = await api.request('GET', `/v1/extractions?limit=100`);
  const listed = list.body.data.data.find((r: { id: string }) => r.id === id);
  return { single: single.body.data, listed };
}

describe('metadata', () => {
  test('is stored and returned in both records, and never reaches the model', async ({
    api,
    model,
  }) => {
    const metadata = {
      customer: 'cus_SECRET_LABEL_42',
      'order-ref': 'ORD-LABEL-77',
      emoji: '🧾'.repeat(500),
      [`k${'x'.repeat(39)}`]: '',
    };
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total 9.99', metadata },
    });
    expect(res.status).toBe(200);
    const { single, listed } = await records(api, res.body.data.id);
    expect(single.metadata).toEqual(metadata);
    expect(listed.metadata).toEqual(metadata);

    expect(model.requests).toHaveLength(1);
    const raw = JSON.stringify(model.requests[0]!.body);
    expect(raw).toContain('Total 9.99');
    for (const [key, value] of Object.entries(metadata)) {
      expect(raw).not.toContain(key);
      if (value) expect(raw).not.toContain(value.slice(0, 20));
    }
  });

  test('is an empty object when none was given', async ({ api }) => {
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total 1', metadata: null },
    });
    expect(res.status).toBe(200);
    const { single, listed } = await records(api, res.body.data.id);
    expect(single.metadata).toEqual({});
    expect(listed.metadata).toEqual({});
  });

  test('comes as a JSON string in multipart and urlencoded bodies', async ({ api }) => {
    const form = new FormData();
    form.append('schema_id', schemaId);
    form.append('type', 'text');
    form.append('source', 'Total 2');
    form.append('metadata', JSON.stringify({ via: 'multipart' }));
    const multipart = await api.request('POST', '/v1/extractions', { body: form });
    expect(multipart.status).toBe(200);
    expect((await records(api, multipart.body.data.id)).single.metadata).toEqual({
      via: 'multipart',
    });

    const encoded = await api.request('POST', '/v1/extractions', {
      body: new URLSearchParams({
        schema_id: schemaId,
        type: 'text',
        source: 'Total 3',
        metadata: JSON.stringify({ via: 'urlencoded' }),
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(encoded.status).toBe(200);
    expect((await records(api, encoded.body.data.id)).listed.metadata).toEqual({
      via: 'urlencoded',
    });
  });

  test('refuses anything else with 422 on metadata or metadata.<key>', async ({ api, model }) => {
    const post = (metadata: unknown) =>
      api.request('POST', '/v1/extractions', {
        json: { schema_id: schemaId, type: 'text', source: 'x', metadata },
      });
    for (const bad of [[], 'text', 7, true, [{ a: 'b' }]]) {
      const res = await post(bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(fields(res)).toEqual(['metadata']);
    }
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
    expect(fields(await post(many))).toEqual(['metadata']);

    const res = await post({
      ok: 'fine',
      number: 1,
      nested: { a: 'b' },
      nil: null,
      long: 'x'.repeat(501),
      nul: 'a\u0000b',
      [`k${'y'.repeat(40)}`]: 'v',
      '': 'empty key',
    });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(
      [
        'metadata.',
        'metadata.long',
        'metadata.nested',
        'metadata.nil',
        'metadata.nul',
        'metadata.number',
        `metadata.k${'y'.repeat(40)}`,
      ].sort(),
    );

    const form = new FormData();
    form.append('schema_id', schemaId);
    form.append('type', 'text');
    form.append('source', 'x');
    form.append('metadata', '{not json');
    const broken = await api.request('POST', '/v1/extractions', { body: form });
    expect(broken.status).toBe(422);
    expect(fields(broken)).toEqual(['metadata']);
    // Nothing invalid was created or sent on.
    expect(model.requests).toHaveLength(0);
  });
});
