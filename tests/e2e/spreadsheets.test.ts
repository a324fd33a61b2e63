/**
 * Spreadsheets through the whole service (docs/sources.md#spreadsheets): uploaded or fetched,
 * XLSX, XLS, ODS or CSV, every sheet reaches the model as a table with its name, values as Calc
 * displays them. Files are made by LibreOffice from a workbook written here. Real API, worker,
 * PostgreSQL and Redis; the model stand-in records what it was sent.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Citation } from '@xt/contract';
import {
  PYTHON,
  SAMPLE_WORKBOOK,
  startFixtureServer,
  workbookFiles,
  type FixtureCell,
  type FixtureRoute,
} from '@xt/testkit/fixtures';
import { stackTest } from '../support/stack.ts';
import { createInvoiceSchema } from '../support/schemas.ts';

let files: Record<'xlsx' | 'xls' | 'ods' | 'csv', Buffer>;
let orders: Buffer;

/**
 * An order list whose rows repeat their prices and products, under a title and a header row,
 * long enough for two windows: each item must be cited on its own row.
 */
const ORDER_ROWS = Array.from({ length: 240 }, (_, k) => ({
  order: `ORD-${String(k + 1).padStart(4, '0')}`,
  product: ['Cable ties', 'Screws', 'Wall plugs'][k % 3]!,
  quantity: (k % 4) + 1,
  unit_price: [2, 3.5, 12.25][k % 3]!,
  date: `2024-0${(k % 9) + 1}-1${k % 10}`,
}));
const ORDERS_SHEET: FixtureCell[][] = [
  [{ value: 'Orders, first half of 2024', span: 5 }],
  ['Order', 'Product', 'Quantity', 'Unit price', 'Date'],
  ...ORDER_ROWS.map((r): FixtureCell[] => [
    r.order,
    r.product,
    r.quantity,
    { value: r.unit_price, style: 'amount' },
    { value: r.date, date: true, style: 'date' },
  ]),
];
// Filled once the files are made: the server looks its routes up per request.
const routes: Record<string, FixtureRoute> = {};
const fixtures = await startFixtureServer(routes);
const allow = `127.0.0.1:${fixtures.port}`;

beforeAll(async () => {
  files = await workbookFiles(SAMPLE_WORKBOOK, ['xlsx', 'xls', 'ods', 'csv']);
  orders = (await workbookFiles([{ name: 'Orders', rows: ORDERS_SHEET }], ['xlsx'])).xlsx;
  routes['/prices.xls'] = { body: files.xls, contentType: 'application/octet-stream' };
}, 300_000);
afterAll(() => fixtures.close());

const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '120', SOURCE_ALLOWLIST: allow },
  worker: { SOURCE_ALLOWLIST: allow },
});

function upload(type: string, bytes: Buffer, name: string, schemaId: string): FormData {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', type);
  form.append('source', new Blob([bytes]), name);
  return form;
}

const ROW_3 =
  '| 3 | A-100 | Widget | 1,234.50 | 800 | 3 | 3,703.50 | 2024-03-05 | 12.5% | 1,234.50 € |';

describe('spreadsheets', () => {
  test('an uploaded XLSX reaches the model as its sheets, values as displayed', async ({
    api,
    model,
  }) => {
    const schemaId = await createInvoiceSchema(api);
    const res = await api.request('POST', '/v1/extractions', {
      body: upload('spreadsheet', files.xlsx, 'prices.xlsx', schemaId),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe('completed');
    const sent = model.requests.at(-1)!.text;
    expect(sent).toContain('Sheet 1 of 3: "Prices"');
    expect(sent).toContain(ROW_3);
    expect(sent).toContain('| 4 (hidden row) | A-101 |');
    expect(sent).toContain('Sheet 2 of 3: "Costs" (hidden sheet)');
    expect(sent).toContain('Sheet 3 of 3: "Notes"');
  });

  test('an XLS by URL and an ODS and a CSV upload are read the same way', async ({
    api,
    model,
  }) => {
    const schemaId = await createInvoiceSchema(api);
    const byUrl = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'spreadsheet', source: `${fixtures.url}/prices.xls` },
    });
    expect(byUrl.status, JSON.stringify(byUrl.body)).toBe(200);
    expect(model.requests.at(-1)!.text).toContain(ROW_3);
    const single = await api.request('GET', `/v1/extractions/${byUrl.body.data.id}`);
    expect(single.body.data.source).toMatchObject({ type: 'spreadsheet', format: 'xls' });

    const ods = await api.request('POST', '/v1/extractions', {
      body: upload('spreadsheet', files.ods, 'prices.ods', schemaId),
    });
    expect(ods.status).toBe(200);
    expect(model.requests.at(-1)!.text).toContain(ROW_3);

    const csv = await api.request('POST', '/v1/extractions', {
      body: upload('auto', files.csv, 'prices.csv', schemaId),
    });
    expect(csv.status).toBe(200);
    expect(model.requests.at(-1)!.text).toContain('Sheet 1 of 1: "Sheet1"');
    const record = await api.request('GET', `/v1/extractions/${csv.body.data.id}`);
    expect(record.body.data.source).toMatchObject({ type: 'spreadsheet', format: 'csv' });

    // Rows of unequal length (a title line, a short total row) are still a table.
    const ragged = await api.request('POST', '/v1/extractions', {
      body: upload(
        'spreadsheet',
        Buffer.from('Price list 2024\nSKU,Description,Price\nA-1,Widget,2.00\nTotal,,2.00\n'),
        'ragged.csv',
        schemaId,
      ),
    });
    expect(ragged.status, JSON.stringify(ragged.body)).toBe(200);
    expect(model.requests.at(-1)!.text).toContain('| 3 | A-1 | Widget | 2.00 |');
    // With no name to tell it by, asking for a spreadsheet is what makes it one.
    const unnamed = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schemaId,
        type: 'spreadsheet',
        source: `data:text/csv;base64,${Buffer.from('Prices\nSKU;Price\nB-2;4,50;new\n').toString('base64')}`,
      },
    });
    expect(unnamed.status, JSON.stringify(unnamed.body)).toBe(200);
    expect(model.requests.at(-1)!.text).toContain('| 3 | B-2 | 4,50 | new |');
  });
});

const ORDERS_STRUCTURE = {
  type: 'object',
  properties: {
    orders: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          order: { type: 'string' },
          product: { type: 'string' },
          quantity: { type: 'number' },
          unit_price: { type: 'number' },
          date: { type: 'string' },
        },
      },
    },
  },
};
const COLUMNS = ['order', 'product', 'quantity', 'unit_price', 'date'] as const;

/** Every cell of the workbook as openpyxl reads it (stored values, not the service's text). */
async function cellsByOpenpyxl(xlsx: Buffer): Promise<Record<string, Record<string, unknown>>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'xt-cells-'));
  try {
    const file = path.join(dir, 'book.xlsx');
    await writeFile(file, xlsx);
    const { stdout } = await promisify(execFile)(
      PYTHON,
      [
        '-c',
        `import sys, json, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(json.dumps({ws.title: {c.coordinate: (c.value.date().isoformat() if hasattr(c.value, 'date') else c.value) for row in ws.iter_rows() for c in row if c.value is not None} for ws in wb.worksheets}))`,
        file,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    return JSON.parse(stdout) as Record<string, Record<string, unknown>>;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('spreadsheet citations', () => {
  test('every value of an XLSX is grounded in its sheet and cell, each item on its own row', async ({
    api,
    model,
  }) => {
    const res = await api.request('POST', '/v1/schemas', {
      json: { name: 'Orders', structure: ORDERS_STRUCTURE },
    });
    const form = upload('spreadsheet', orders, 'orders.xlsx', res.body.data.id);
    form.append('citations', 'true');
    model.behave({ oracle: true });
    const done = await api.request('POST', '/v1/extractions', { body: form });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.output.orders).toHaveLength(ORDER_ROWS.length);
    // The second window repeats the header row, and the title above it is not taken for one.
    expect(model.requests.at(-1)!.text).toContain('(header row 2 repeated)');

    const citations = done.body.data.citations as Record<string, Citation>;
    const stored = (await cellsByOpenpyxl(orders)).Orders!;
    const wrong: string[] = [];
    ORDER_ROWS.forEach((row, k) => {
      COLUMNS.forEach((field, c) => {
        const pointer = `/orders/${k}/${field}`;
        const cite = citations[pointer];
        const cell = `${'ABCDE'[c]}${k + 3}`;
        const ok =
          cite?.grounded === true &&
          cite.sheet === 'Orders' &&
          cite.cell === cell &&
          cite.page === null &&
          cite.boxes.length === 0 &&
          // The cell holds the value: checked against the file as openpyxl reads it.
          String(stored[cell]) === String(row[field]);
        if (!ok)
          wrong.push(`${pointer} → ${JSON.stringify(cite)} (${cell}: ${String(stored[cell])})`);
      });
    });
    expect(wrong).toEqual([]);
    // The quote is the cell as the sheet shows it.
    expect(citations['/orders/2/unit_price']).toMatchObject({ quote: '12.25', cell: 'D5' });
    expect(citations['/orders/0/unit_price']).toMatchObject({ quote: '2.00', cell: 'D3' });
    expect(citations['/orders/0/date']).toMatchObject({ quote: '2024-01-10', cell: 'E3' });
    expect(done.body.data).not.toHaveProperty('warnings');
  });
});
