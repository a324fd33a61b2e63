/**
 * Spreadsheets through the whole service (docs/sources.md#spreadsheets): uploaded or fetched,
 * XLSX, XLS, ODS or CSV, every sheet reaches the model as a table with its name, values as Calc
 * displays them. Files are made by LibreOffice from a workbook written here. Real API, worker,
 * PostgreSQL and Redis; the model stand-in records what it was sent.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  SAMPLE_WORKBOOK,
  startFixtureServer,
  workbookFiles,
  type FixtureRoute,
} from '@xt/testkit/fixtures';
import { stackTest } from '../support/stack.ts';
import { createInvoiceSchema } from '../support/schemas.ts';

let files: Record<'xlsx' | 'xls' | 'ods' | 'csv', Buffer>;
// Filled once the files are made: the server looks its routes up per request.
const routes: Record<string, FixtureRoute> = {};
const fixtures = await startFixtureServer(routes);
const allow = `127.0.0.1:${fixtures.port}`;

beforeAll(async () => {
  files = await workbookFiles(SAMPLE_WORKBOOK, ['xlsx', 'xls', 'ods', 'csv']);
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
  });
});
