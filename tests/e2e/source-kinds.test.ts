/**
 * The registry's kinds through the API and a worker (docs/sources.md): office files, sheets and
 * messages are recognised by their content, whatever their name says; `auto` stores the kind it
 * found; both records show the `format`. Files are made by LibreOffice from content written
 * here.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { convertWithLibreOffice, startFixtureServer, textPdf } from '@xt/testkit/fixtures';
import { stackTest } from '../support/stack.ts';
import { createInvoiceSchema } from '../support/schemas.ts';

const pdf = await textPdf(['Invoice 7', 'Total due 12.50 EUR']);
// Served as a download of no particular type: `auto` decides by the bytes.
const fixtures = await startFixtureServer({
  '/q3': { body: pdf, contentType: 'application/octet-stream' },
});
const allow = `127.0.0.1:${fixtures.port}`;
let docx: Buffer;
let xlsx: Buffer;

beforeAll(async () => {
  const html = '<html><body><h1>Invoice 7</h1><p>Total due 12.50 EUR</p></body></html>';
  docx = [
    ...(
      await convertWithLibreOffice([{ name: 'a.html', content: html }], 'docx:MS Word 2007 XML')
    ).values(),
  ][0]!;
  xlsx = [
    ...(
      await convertWithLibreOffice(
        [{ name: 'b.csv', content: 'item,total\nTies,12.50\nScrews,3\n' }],
        'xlsx:Calc MS Excel 2007 XML',
      )
    ).values(),
  ][0]!;
}, 300_000);
afterAll(() => fixtures.close());

const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '60', SOURCE_ALLOWLIST: allow },
  worker: { SOURCE_ALLOWLIST: allow },
});

function upload(type: string, bytes: Buffer, name: string, schemaId: string): FormData {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', type);
  form.append('source', new Blob([bytes]), name);
  return form;
}

describe('kinds recognised by content', () => {
  test('an office file is taken as its kind, with its format, whatever its name', async ({
    api,
  }) => {
    const schemaId = await createInvoiceSchema(api);
    const res = await api.request('POST', '/v1/extractions', {
      body: upload('document', docx, 'scan.bin', schemaId),
      headers: { prefer: 'respond-async' },
    });
    expect(res.status).toBe(202);
    const single = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(single.body.data.source).toMatchObject({ type: 'document', format: 'docx' });
    const list = await api.request('GET', '/v1/extractions?limit=1');
    expect(list.body.data.data[0].input).toMatchObject({ type: 'document', format: 'docx' });
  });

  test('a file of another kind is a 422 on source that says what it is', async ({ api }) => {
    const schemaId = await createInvoiceSchema(api);
    const res = await api.request('POST', '/v1/extractions', {
      body: upload('spreadsheet', docx, 'prices.xlsx', schemaId),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        field: 'source',
        message: 'source is not a spreadsheet: the file is a DOCX file (type document reads it)',
      },
    ]);
  });

  test('auto stores the kind its content is', async ({ api }) => {
    const schemaId = await createInvoiceSchema(api);
    const sheet = await api.request('POST', '/v1/extractions', {
      body: upload('auto', xlsx, 'upload', schemaId),
      headers: { prefer: 'respond-async' },
    });
    expect(sheet.status).toBe(202);
    const single = await api.request('GET', `/v1/extractions/${sheet.body.data.id}`);
    expect(single.body.data.source).toMatchObject({ type: 'spreadsheet', format: 'xlsx' });

    // A data: URL of a PDF, in a JSON body, is read at once.
    const done = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schemaId,
        type: 'auto',
        source: `data:application/octet-stream;base64,${pdf.toString('base64')}`,
      },
    });
    expect(done.status).toBe(200);
    const record = await api.request('GET', `/v1/extractions/${done.body.data.id}`);
    expect(record.body.data.source).toMatchObject({ type: 'pdf', format: 'pdf' });
  });

  test('an auto URL is fetched, read as the kind its bytes are, and shows what it was', async ({
    api,
    model,
  }) => {
    const schemaId = await createInvoiceSchema(api);
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'auto', source: `${fixtures.url}/q3` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(model.requests.at(-1)!.text).toContain('Total due 12.50 EUR');
    const single = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(single.body.data.source).toMatchObject({
      type: 'pdf',
      content: `${fixtures.url}/q3`,
      format: 'pdf',
    });
  });
});
