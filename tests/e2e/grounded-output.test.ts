/**
 * Grounded output through the whole service (docs/citations.md): the worker locates every value
 * in the source it read (offsets into a text, lines with boxes on PDF pages), flags values it
 * found nowhere, and continues answers the model's output limit cut off. Real API, worker,
 * PostgreSQL and Redis; the model stand-in answers, quoting the source as a model would.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Citation } from '@xt/contract';
import {
  placedTextPdf,
  scannedPdf,
  startFixtureServer,
  textImagePng,
  type FixtureServer,
} from '@xt/testkit/fixtures';
import { startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '@xt/api/testing';

checkResponsesAgainstOpenApi();

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let fixtures: FixtureServer;
let pdfRects: [number, number, number, number][][];
let pdfBytes: Buffer;

const invoice = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true },
    total: { type: 'number' },
    currency: { type: 'string' },
  },
};
const table = {
  type: 'object',
  properties: {
    title: { type: 'string', required: true },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', required: true },
          amount: { type: 'number', required: true },
        },
      },
    },
  },
};
const ROWS = 1_500;
const rowId = (i: number) => `R${String(i + 1).padStart(4, '0')}`;
const tableSource = [
  'Statement of rows',
  ...Array.from({ length: ROWS }, (_, i) => `${rowId(i)} ${i + 1}`),
].join('\n');

// textImagePng's layout: 28 px type, baselines at (i + 1.5) × 42 px, 210 px tall for 3 lines.
const RECEIPT_LINES = [
  'Receipt from Corner Bakery',
  'Customer: Ada Lovelace',
  'Total paid: 42.75 EUR',
];
const RECEIPT = { fontSize: 28, lineHeight: 42, height: 210 };

let invoiceSchema: string;
let tableSchema: string;

beforeAll(async () => {
  const placed = await placedTextPdf([
    [
      { text: 'ACME Supplies Ltd', x: 72, y: 720, size: 16 },
      { text: 'Invoice number', x: 72, y: 660 },
      { text: 'INV-2048', x: 72, y: 644 },
    ],
    [{ text: 'Terms and conditions apply to every order.', x: 72, y: 700 }],
    [
      { text: 'Page three summary', x: 72, y: 720 },
      { text: 'Total due', x: 320, y: 200, size: 14 },
      { text: '9,876.54', x: 320, y: 180, size: 14 },
    ],
  ]);
  pdfRects = placed.rects;
  pdfBytes = placed.pdf;
  fixtures = await startFixtureServer({
    '/invoice.pdf': { body: placed.pdf, contentType: 'application/pdf' },
    '/receipt.png': { body: await textImagePng(RECEIPT_LINES), contentType: 'image/png' },
    '/scan.pdf': {
      // One page each.
      body: await scannedPdf(['Delivery note', 'Customer: Grace Hopper']),
      contentType: 'application/pdf',
    },
  });
  model = await startModelStandIn();
  const allow = `127.0.0.1:${fixtures.port}`;
  api = await startTestApi({ SOURCE_ALLOWLIST: allow, EXTRACTION_WAIT_SECONDS: '60' });
  worker = await startTestWorker(api, model.url, { SOURCE_ALLOWLIST: allow, PREP_THREADS: '1' });
  const created = async (name: string, structure: unknown) =>
    (await api.request('POST', '/v1/schemas', { json: { name, structure } })).body.data
      .id as string;
  invoiceSchema = await created('Invoice', invoice);
  tableSchema = await created('Statement', table);
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
  await fixtures?.close();
});

beforeEach(() => {
  model.reset();
  model.setDefaultBehaviour({});
});

const create = (json: Record<string, unknown>) => api.request('POST', '/v1/extractions', { json });

function iou(a: number[], b: number[]): number {
  const [ax0 = 0, ay0 = 0, ax1 = 0, ay1 = 0] = a;
  const [bx0 = 0, by0 = 0, bx1 = 0, by1 = 0] = b;
  const w = Math.max(0, Math.min(ax1, bx1) - Math.max(ax0, bx0));
  const h = Math.max(0, Math.min(ay1, by1) - Math.max(ay0, by0));
  const inter = w * h;
  return inter / ((ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter);
}

describe('citations', () => {
  it('locates the values of a text source by offsets into the submitted text', async () => {
    const source = 'Invoice 2026-117\nCustomer: Ada\nTotal due: 1,234.50 EUR';
    model.setDefaultBehaviour({ output: { number: '2026-117', total: 1234.5, currency: 'EUR' } });
    const res = await create({ schema_id: invoiceSchema, type: 'text', source, citations: true });
    expect(res.status).toBe(200);
    const { citations, warnings } = res.body.data as {
      citations: Record<string, Citation>;
      warnings?: unknown;
    };
    expect(Object.keys(citations)).toEqual(['/number', '/total', '/currency']);
    for (const [pointer, expected] of [
      ['/number', '2026-117'],
      ['/total', '1,234.50'],
      ['/currency', 'EUR'],
    ] as const) {
      const c = citations[pointer] as Citation;
      expect(c).toMatchObject({ grounded: true, page: null, boxes: [] });
      expect(source.slice(c.start ?? -1, c.end ?? -1)).toBe(c.quote);
      expect(c.quote).toContain(expected);
      expect(c.confidence).toBeGreaterThan(0.5);
    }
    expect(warnings).toBeUndefined();
    // Asked in the same call: quotes beside the output, and the tokens' log-probabilities.
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.body).toMatchObject({ logprobs: true });
  });

  it('gives a PDF value its page and a box over the line it is drawn on (URL and upload alike)', async () => {
    model.setDefaultBehaviour({ output: { number: 'INV-2048', total: 9876.54, currency: null } });
    const byUrl = await create({
      schema_id: invoiceSchema,
      type: 'pdf',
      source: `${fixtures.url}/invoice.pdf`,
      citations: true,
    });
    const form = new FormData();
    form.append('schema_id', invoiceSchema);
    form.append('type', 'pdf');
    form.append('citations', 'true');
    form.append('source', new Blob([pdfBytes]), 'invoice.pdf');
    const byUpload = await api.request('POST', '/v1/extractions', { body: form });
    for (const res of [byUrl, byUpload]) {
      expect(res.status).toBe(200);
      const citations = res.body.data.citations as Record<string, Citation>;
      expect(Object.keys(citations)).toEqual(['/number', '/total']);
      const number = citations['/number'] as Citation;
      const total = citations['/total'] as Citation;
      expect(number).toMatchObject({ grounded: true, page: 1, start: null, end: null });
      expect(total).toMatchObject({ grounded: true, page: 3 });
      expect(number.boxes).toHaveLength(1);
      expect(total.boxes).toHaveLength(1);
      expect(iou(number.boxes[0] ?? [], pdfRects[0]?.[2] ?? [])).toBeGreaterThanOrEqual(0.5);
      expect(iou(total.boxes[0] ?? [], pdfRects[2]?.[2] ?? [])).toBeGreaterThanOrEqual(0.5);
      expect(res.body.data.warnings).toBeUndefined();
    }
  });

  it('locates the values of an image through OCR, each with a box on its own line', async () => {
    model.setDefaultBehaviour({
      output: { number: 'Ada Lovelace', total: 42.75, currency: 'EUR' },
    });
    const res = await create({
      schema_id: invoiceSchema,
      type: 'image',
      source: `${fixtures.url}/receipt.png`,
      citations: true,
    });
    expect(res.status).toBe(200);
    const citations = res.body.data.citations as Record<string, Citation>;
    for (const [pointer, line] of [
      ['/number', 1],
      ['/total', 2],
      ['/currency', 2],
    ] as const) {
      const c = citations[pointer] as Citation;
      expect(c).toMatchObject({ grounded: true, page: 1, start: null, end: null });
      expect(c.boxes).toHaveLength(1);
      const [, top = 0, , bottom = 0] = c.boxes[0] ?? [];
      const baseline = ((line + 1.5) * RECEIPT.lineHeight) / RECEIPT.height;
      const middle = (top + bottom) / 2;
      // The box's middle lies between the line's cap height and its baseline.
      expect(middle).toBeGreaterThan(baseline - RECEIPT.fontSize / RECEIPT.height);
      expect(middle).toBeLessThan(baseline);
    }
    expect(res.body.data.warnings).toBeUndefined();
  });

  it('reads scanned PDF pages through OCR, each value on its own page', async () => {
    model.setDefaultBehaviour({ output: { number: 'Grace Hopper', total: null, currency: null } });
    const res = await create({
      schema_id: invoiceSchema,
      type: 'pdf',
      source: `${fixtures.url}/scan.pdf`,
      citations: true,
    });
    expect(res.status).toBe(200);
    const number = res.body.data.citations['/number'] as Citation;
    expect(number).toMatchObject({ grounded: true, page: 2 });
    expect(number.quote).toContain('Grace Hopper');
    expect(number.boxes).toHaveLength(1);
  });

  it('flags a value the model invented: not grounded, no quote, UNGROUNDED_VALUES', async () => {
    model.setDefaultBehaviour({
      output: { number: '2026-117', total: 1234.5, currency: null },
      // The model even claims a quote for it; the service never takes its word.
      invent: [{ pointer: '/currency', value: 'USD', quote: 'Currency: USD' }],
    });
    const res = await create({
      schema_id: invoiceSchema,
      type: 'text',
      source: 'Invoice 2026-117\nTotal due: 1,234.50 EUR',
      citations: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.output).toEqual({ number: '2026-117', total: 1234.5, currency: 'USD' });
    const currency = res.body.data.citations['/currency'] as Citation;
    expect(currency).toMatchObject({ grounded: false, quote: null, start: null, end: null });
    expect(res.body.data.citations['/number'].grounded).toBe(true);
    expect(res.body.data.warnings).toEqual([
      expect.objectContaining({ code: 'UNGROUNDED_VALUES', path: '/currency' }),
    ]);
    const record = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(record.body.data.warnings).toEqual(res.body.data.warnings);
  });

  it('leaves records without citations unchanged and sends the model nothing new', async () => {
    model.setDefaultBehaviour({ output: { number: '2026-117', total: 1234.5, currency: 'USD' } });
    const res = await create({
      schema_id: invoiceSchema,
      type: 'text',
      source: 'Invoice 2026-117\nTotal due: 1,234.50 EUR',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('citations');
    expect(res.body.data).not.toHaveProperty('warnings');
    const record = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(record.body.data).not.toHaveProperty('citations');
    const request = model.requests[0];
    expect(request?.body).not.toHaveProperty('logprobs');
    expect(request?.schema).not.toHaveProperty('properties.quotes');
    expect(request?.text).not.toContain('quotes');
  });
});

describe('long answers', () => {
  /** The rows a model reads in the source it was sent. */
  const readRows = (text: string) => ({
    title: 'Statement of rows',
    rows: [...text.matchAll(/^(R\d{4}) (\d+)$/gm)].map((m) => ({
      id: m[1] as string,
      amount: Number(m[2]),
    })),
  });

  it('continues an answer cut off by the output limit: every row, in order, once', async () => {
    model.setDefaultBehaviour({ respond: (r) => readRows(r.text), outputLimit: 4_000 });
    const res = await create({ schema_id: tableSchema, type: 'text', source: tableSource });
    expect(res.status).toBe(200);
    const rows = (res.body.data.output as { rows: { id: string }[] }).rows;
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: ROWS }, (_, i) => rowId(i)));
    expect(res.body.data.warnings).toBeUndefined();
    expect(model.requests.length).toBeGreaterThan(1);
  });

  it('completes with OUTPUT_TRUNCATED naming the list when the continuation bound is reached', async () => {
    // ~40 rows per answer: the default bound of 8 continuations ends far short of 1,500.
    model.setDefaultBehaviour({ respond: (r) => readRows(r.text), outputLimit: 300 });
    const res = await create({ schema_id: tableSchema, type: 'text', source: tableSource });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('completed');
    const rows = (res.body.data.output as { rows: { id: string }[] }).rows;
    expect(rows.length).toBeLessThan(ROWS);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: rows.length }, (_, i) => rowId(i)));
    expect(res.body.data.warnings).toEqual([
      expect.objectContaining({ code: 'OUTPUT_TRUNCATED', path: '/rows' }),
    ]);
    expect(model.requests).toHaveLength(9);
  });
});
