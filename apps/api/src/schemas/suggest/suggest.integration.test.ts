/**
 * Schema suggestion and JSON Schema import against the real API, a real worker and the model
 * stand-in answering as the oracle (values only where the samples write them).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '../../../test/start-api.ts';

checkResponsesAgainstOpenApi();

const MAX_UPLOAD_BYTES = 4096;

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi({
    EXTRACTION_WAIT_SECONDS: '20',
    SUGGEST_WAIT_SECONDS: '60',
    MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES),
  });
  worker = await startTestWorker(api, model.url, { JOB_ATTEMPTS: '1' });
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
});

beforeEach(() => {
  model.reset();
  model.setDefaultBehaviour({ oracle: true });
});

const invoiceA = [
  'Invoice number: INV-7',
  'Issue date: 2026-11-21',
  '取引先: 株式会社サンプル',
  'Total due: 1,250.00 EUR',
].join('\n');
const invoiceB = [
  '# Invoice',
  'Invoice number: INV-8',
  'Total due: 99.00 EUR',
  'Purchase order: PO-1',
].join('\n');

function form(files: [string, string][], fields: Record<string, string> = {}): FormData {
  const body = new FormData();
  for (const [name, text] of files)
    body.append('files', new Blob([text], { type: 'text/plain' }), name);
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return body;
}

describe('POST /v1/schemas/suggest', () => {
  it('drafts one structure from the samples, runs it on each, and the draft is a schema as it is', async () => {
    const res = await api.request('POST', '/v1/schemas/suggest', {
      body: form(
        [
          ['a.txt', invoiceA],
          ['b.md', invoiceB],
        ],
        { prompt: 'invoices from suppliers' },
      ),
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(Object.keys(data.structure.properties)).toEqual([
      'invoice_number',
      'issue_date',
      '取引先',
      'total_due',
      'purchase_order',
    ]);
    expect(data.structure.properties.total_due.type).toBe('number');

    const [a, b] = data.samples;
    expect(a.file.name).toBe('a.txt');
    expect(a.output).toMatchObject({
      invoice_number: 'INV-7',
      取引先: '株式会社サンプル',
      total_due: 1250,
    });
    expect(a.fields).toEqual({
      found: ['invoice_number', 'issue_date', '取引先', 'total_due'],
      missing: ['purchase_order'],
      share: 0.8,
    });
    expect(b.fields).toEqual({
      found: ['invoice_number', 'total_due', 'purchase_order'],
      missing: ['issue_date', '取引先'],
      share: 0.6,
    });
    expect(a.citations['/invoice_number']).toMatchObject({ quote: 'INV-7' });

    // Charged as extractions: two rounds of one per sample, listed under the suggestion's id.
    expect(data.usage.extractions).toHaveLength(4);
    expect(data.usage.totalTokens).toBeGreaterThan(0);
    const listed = await api.request('GET', `/v1/extractions?schema_id=${data.id}`);
    expect(listed.body.data.meta.total).toBe(4);
    const named = await api.request(
      'GET',
      `/v1/extractions?search=${encodeURIComponent('schema suggestion')}`,
    );
    expect(named.body.data.meta.total).toBeGreaterThanOrEqual(4);

    // The prompt reached the drafting calls, and only them.
    const drafting = model.requests.filter((r) => r.text.includes('proposedFields'));
    expect(drafting).toHaveLength(2);
    expect(drafting.every((r) => r.text.includes('invoices from suppliers'))).toBe(true);

    const created = await api.request('POST', '/v1/schemas', {
      json: { name: 'Supplier invoice', structure: data.structure },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.structure).toEqual(data.structure);
    expect(await api.request('GET', '/v1/schemas')).toMatchObject({
      body: { data: { meta: { total: 1 } } },
    });
  });

  it('is answered without the version segment too', async () => {
    const res = await api.request('POST', '/schemas/suggest', {
      body: form([['a.txt', invoiceA]]),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.samples).toHaveLength(1);
  });

  it.each([
    ['no files', () => form([]), 'files'],
    [
      'six files',
      () => form(Array.from({ length: 6 }, (_, i): [string, string] => [`${i}.txt`, invoiceA])),
      'files',
    ],
    [
      'a text source',
      () => {
        const body = new FormData();
        body.append('files', invoiceA);
        return body;
      },
      'files',
    ],
    [
      'an empty file',
      () =>
        form([
          ['a.txt', invoiceA],
          ['empty.txt', ''],
        ]),
      'files[1]',
    ],
    [
      'a file past MAX_UPLOAD_BYTES',
      () =>
        form([
          ['a.txt', invoiceA],
          ['big.txt', 'x'.repeat(MAX_UPLOAD_BYTES + 1)],
        ]),
      'files[1]',
    ],
    [
      'a prompt too long',
      () => form([['a.txt', invoiceA]], { prompt: 'p'.repeat(2001) }),
      'prompt',
    ],
  ])('refuses %s with a 422 naming the field', async (_what, body, field) => {
    const res = await api.request('POST', '/v1/schemas/suggest', { body: body() });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(model.requests).toHaveLength(0);
  });

  it('refuses a JSON body: samples are files', async () => {
    const res = await api.request('POST', '/v1/schemas/suggest', { json: { files: ['x'] } });
    expect(res.status).toBe(415);
  });

  it('answers 503 with Retry-After when the model provider is down, never 500', async () => {
    model.setDefaultBehaviour({ status: 503 });
    const res = await api.request('POST', '/v1/schemas/suggest', {
      body: form([['a.txt', invoiceA]]),
    });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ status: false, code: 'MODEL_UNAVAILABLE' });
  });
});

describe('POST /v1/schemas/convert', () => {
  it('converts a JSON Schema whose structure POST /schemas takes as it is', async () => {
    const jsonSchema = {
      $defs: { Line: { type: 'object', properties: { amount: { type: 'number', minimum: 0 } } } },
      type: 'object',
      properties: {
        取引先: { type: 'string' },
        lines: { type: 'array', items: { $ref: '#/$defs/Line' } },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['取引先'],
    };
    const res = await api.request('POST', '/v1/schemas/convert', { json: { jsonSchema } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      structure: {
        type: 'object',
        properties: {
          取引先: { type: 'string', required: true },
          lines: {
            type: 'array',
            items: { type: 'object', properties: { amount: { type: 'number' } } },
          },
          note: { type: 'string' },
        },
      },
      dropped: [
        {
          path: '/properties/lines/items/properties/amount/minimum',
          reason: 'minimum has no equivalent in a structure',
        },
      ],
    });
    const created = await api.request('POST', '/schemas', {
      json: { name: 'Imported', structure: res.body.data.structure },
    });
    expect(created.status).toBe(201);
    expect(model.requests).toHaveLength(0);
  });

  it.each([
    ['a missing jsonSchema', {}, 'jsonSchema'],
    ['a jsonSchema that is no object', { jsonSchema: [1] }, 'jsonSchema'],
    [
      'an unknown type',
      { jsonSchema: { type: 'object', properties: { a: { type: 'text' } } } },
      'jsonSchema.properties.a.type',
    ],
  ])('refuses %s with a 422 naming the field', async (_what, json, field) => {
    const res = await api.request('POST', '/v1/schemas/convert', { json });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});
