/**
 * Uploaded sources through the whole service: file parts and data: URLs arrive at the real API,
 * are stored in PostgreSQL with the row, a real worker process reads them from there through
 * the same preparation as fetched sources, and the model stand-in shows what arrived.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jpegImage, pngImage, scannedPdf, textPdf } from '@xt/testkit/fixtures';
import {
  startModelStandIn,
  waitFor,
  type AppProcess,
  type ModelStandIn,
  openTestPool,
} from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '@xt/api/testing';
import { createInvoiceSchema } from '../support/schemas.ts';

checkResponsesAgainstOpenApi();

const MAX_UPLOAD_BYTES = 3 * 1024 * 1024;

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let db: pg.Pool;
let tmpDir: string;
let schemaId: string;
let invoicePdf: Buffer;

beforeAll(async () => {
  tmpDir = await mkdtemp(path.join(os.tmpdir(), 'xt-upload-test-'));
  model = await startModelStandIn();
  const limits = { MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), MAX_TEXT_CHARS: '5000' };
  api = await startTestApi({ ...limits, EXTRACTION_WAIT_SECONDS: '60', UPLOAD_TMP_DIR: tmpDir });
  worker = await startTestWorker(api, model.url, { ...limits, PREP_THREADS: '1' });
  db = openTestPool(api.database.url);
  schemaId = await createInvoiceSchema(api);
  invoicePdf = await textPdf(['Invoice 2026-117 from Umbrella Corp', 'Total due 4321.50 EUR']);
});

afterAll(async () => {
  await worker?.stop();
  await db?.end();
  await api?.close();
  await model?.close();
  if (tmpDir) await rm(tmpDir, { recursive: true, force: true });
});

beforeEach(() => model.reset());

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function form(fields: Record<string, string>, files: [string, Blob, string][] = []): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const [field, blob, name] of files) f.append(field, blob, name);
  return f;
}

const upload = (type: string, bytes: Buffer | string, name: string, extra = {}) =>
  api.request('POST', '/v1/extractions', {
    body: form({ schema_id: schemaId, type, ...extra }, [['source', new Blob([bytes]), name]]),
  });

async function records(id: string) {
  const single = await api.request('GET', `/v1/extractions/${id}`);
  const list = await api.request('GET', '/v1/extractions?limit=100');
  return {
    single: single.body.data,
    listed: list.body.data.data.find((r: { id: string }) => r.id === id),
  };
}

async function storedBlobs(): Promise<number> {
  const r = await db.query('select count(*)::int as n from blobs');
  return r.rows[0].n as number;
}

async function fileRef(id: string): Promise<string | null> {
  const r = await db.query('select file_ref from extractions where id = $1', [id]);
  return (r.rows[0]?.file_ref ?? null) as string | null;
}

describe('file parts', () => {
  it('extracts an uploaded PDF from its text layer and shows the file in both records', async () => {
    const res = await upload('pdf', invoicePdf, 'invoice.pdf', {
      metadata: '{"batch":"b-1"}',
    });
    expect(res.status, res.text).toBe(200);
    const sent = model.requests[0]!;
    expect(sent.text).toContain('Invoice 2026-117 from Umbrella Corp');
    expect(sent.text).toContain('Total due 4321.50 EUR');
    expect(sent.images).toHaveLength(0);
    expect(sent.text).not.toContain('invoice.pdf');

    const file = {
      name: 'invoice.pdf',
      size: invoicePdf.length,
      contentType: 'application/pdf',
      sha256: sha256(invoicePdf),
    };
    const { single, listed } = await records(res.body.data.id);
    // `format` is what the content was recognised as (docs/sources.md).
    expect(single.source).toEqual({ type: 'pdf', content: 'invoice.pdf', file, format: 'pdf' });
    expect(listed.input).toEqual({
      schema_id: schemaId,
      type: 'pdf',
      source: 'invoice.pdf',
      file,
      format: 'pdf',
    });
    expect(listed.metadata).toEqual({ batch: 'b-1' });
    // Nothing is left in the temp folder once the request is answered.
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('sends a scanned PDF page and an uploaded photo as images, resized as for fetched ones', async () => {
    const scan = await upload('pdf', await scannedPdf(['SCANNED RECEIPT 99']), 'scan.pdf');
    expect(scan.status).toBe(200);
    expect(model.requests[0]!.images).toHaveLength(1);

    model.reset();
    const photo = await jpegImage({ width: 3000, height: 2000 });
    const res = await upload('image', photo, 'receipt.jpg');
    expect(res.status).toBe(200);
    const [image] = model.requests[0]!.images;
    expect(image).toMatchObject({ inline: true });
    expect(Math.max(image!.width ?? 0, image!.height ?? 0)).toBeLessThanOrEqual(2048);
    expect((await records(res.body.data.id)).single.source.file).toMatchObject({
      contentType: 'image/jpeg',
      size: photo.length,
    });
  });

  it('extracts UTF-8 text files: plain, Markdown, CSV and JSON', async () => {
    const files: [string, string, string][] = [
      ['notes.txt', 'Plain notes: total 12 € — café', 'text/plain'],
      ['notes.md', '# Heading\n\n- item one\n- item two', 'text/markdown'],
      ['rows.csv', 'sku,qty,price\nA-1,2,3.50\nB-2,1,10.00', 'text/csv'],
      ['doc.json', '{"invoice": {"total": 88.25}}', 'application/json'],
    ];
    for (const [name, text, contentType] of files) {
      model.reset();
      const res = await upload('text', text, name);
      expect(res.status, name).toBe(200);
      expect(model.requests[0]!.text).toContain(text);
      const { single } = await records(res.body.data.id);
      expect(single.source).toMatchObject({ type: 'text', content: name });
      expect(single.source.file).toEqual({
        name,
        size: Buffer.byteLength(text),
        contentType,
        sha256: sha256(text),
      });
    }
  });

  it('reads an uploaded HTML file as text, without running it', async () => {
    const html =
      '<!doctype html><html><head><title>Bill</title><script>document.title = "RAN"</script></head>' +
      '<body><h1>Bill 31</h1><p>Total <b>7.25</b></p><script>document.write("SCRIPT RAN")</script></body></html>';
    const res = await upload('text', html, 'bill.html');
    expect(res.status, res.text).toBe(200);
    const sent = model.requests[0]!.text;
    expect(sent).toContain('# Bill 31');
    expect(sent).toContain('Total **7.25**');
    expect(sent).not.toContain('RAN');
    expect(sent).not.toContain('<h1>');
    expect((await records(res.body.data.id)).single.source.file.contentType).toBe('text/html');
  });

  it('cites an uploaded text file by offsets into its text as decoded, HTML by quote', async () => {
    // A byte-order mark (not text), CRLF line ends and characters outside ASCII, one of them two
    // UTF-16 code units: offsets are JavaScript string indices into the decoded text.
    const text = 'Café 𝒳 receipt\r\nTotal due: 1.234,50 €\r\n';
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    model.behave({ output: { total: 1234.5 } });
    const res = await upload('text', file, 'receipt.txt', { citations: 'true' });
    expect(res.status, res.text).toBe(200);
    const cited = res.body.data.citations['/total'];
    expect(cited).toMatchObject({ grounded: true, quote: '1.234,50', page: null, boxes: [] });
    expect(text.slice(cited.start, cited.end)).toBe('1.234,50');
    expect((await records(res.body.data.id)).single.citations['/total']).toEqual(cited);

    model.behave({ output: { total: 7.25 } });
    const html = await upload('text', '<h1>Bill</h1><p>Total <b>7.25</b></p>', 'bill.html', {
      citations: 'true',
    });
    expect(html.status, html.text).toBe(200);
    expect(html.body.data.citations['/total']).toMatchObject({
      grounded: true,
      quote: '7.25',
      start: null,
      end: null,
    });
  });

  it('ignores file parts under other names, like any unknown field', async () => {
    const res = await api.request('POST', '/v1/extractions', {
      body: form({ schema_id: schemaId, type: 'text', source: 'Total 5' }, [
        ['attachment', new Blob(['ignored bytes']), 'other.txt'],
      ]),
    });
    expect(res.status).toBe(200);
    expect(model.requests[0]!.text).not.toContain('ignored bytes');
    expect((await records(res.body.data.id)).single.source).toEqual({
      type: 'text',
      content: 'Total 5',
    });
  });

  it('keeps hostile file names safe: last path segment, no control characters, 255 at most', async () => {
    const cases: [string, string][] = [
      ['../../etc/passwd.txt', 'passwd.txt'],
      ['C:\\Users\\me\\bill.txt', 'bill.txt'],
      ['line\nbreak\r\u202egnp.exe', 'linebreakgnp.exe'],
      [`${'n'.repeat(1000)}.txt`, `${'n'.repeat(251)}.txt`],
    ];
    for (const [raw, shown] of cases) {
      const res = await upload('text', 'Total 1', raw);
      expect(res.status, raw).toBe(200);
      const { single, listed } = await records(res.body.data.id);
      expect(single.source.content).toBe(shown);
      expect(listed.input.file.name).toBe(shown);
    }
    // Control characters can only arrive percent-encoded (RFC 5987 filename*).
    const boundary = 'xtnames';
    const raw = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="schema_id"',
      '',
      schemaId,
      `--${boundary}`,
      'Content-Disposition: form-data; name="type"',
      '',
      'text',
      `--${boundary}`,
      `Content-Disposition: form-data; name="source"; filename*=UTF-8''bad%01%1B%5B31mname%C2%85%7F.txt`,
      '',
      'Total 2',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await api.request('POST', '/v1/extractions', {
      body: raw,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status, res.text).toBe(200);
    expect((await records(res.body.data.id)).single.source.content).toBe('bad[31mname.txt');

    // A name that is nothing once made safe shows as `upload`.
    const nameless = await api.request('POST', '/v1/extractions', {
      body: raw.replace(/filename\*=[^\r]+/, "filename*=UTF-8''%01%02%E2%80%AE"),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(nameless.status, nameless.text).toBe(200);
    expect((await records(nameless.body.data.id)).listed.input.source).toBe('upload');
    expect(await readdir(tmpDir)).toEqual([]);
  });
});

describe('data: URLs', () => {
  it('takes a PDF in JSON and an image in a urlencoded body', async () => {
    const pdf = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schemaId,
        type: 'pdf',
        source: `data:application/pdf;base64,${invoicePdf.toString('base64')}`,
      },
    });
    expect(pdf.status).toBe(200);
    expect(model.requests[0]!.text).toContain('Invoice 2026-117 from Umbrella Corp');
    const { single, listed } = await records(pdf.body.data.id);
    expect(single.source).toEqual({
      type: 'pdf',
      content: 'upload',
      file: {
        name: 'upload',
        size: invoicePdf.length,
        contentType: 'application/pdf',
        sha256: sha256(invoicePdf),
      },
      format: 'pdf',
    });
    expect(listed.input.source).toBe('upload');

    model.reset();
    const png = await pngImage({ width: 40, height: 30 });
    const image = await api.request('POST', '/v1/extractions', {
      body: new URLSearchParams({
        schema_id: schemaId,
        type: 'image',
        source: `data:image/png;base64,${png.toString('base64')}`,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(image.status).toBe(200);
    expect(model.requests[0]!.images).toHaveLength(1);
    expect((await records(image.body.data.id)).single.source.file.contentType).toBe('image/png');
  });
});

describe('bad uploads', () => {
  const only = (res: { status: number; body: { errors?: { field: string }[] } }) => {
    expect(res.status).toBe(422);
    return res.body.errors!.map((e) => e.field);
  };
  const message = (res: { body: { errors?: { message: string }[] } }) =>
    res.body.errors![0]!.message;

  it('refuses empty files, content of another type, bad UTF-8, extra parts, with 422 on source', async () => {
    const before = await storedBlobs();
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 1)]);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0x90)]);
    const cases: [string, Buffer | string, string, RegExp][] = [
      ['pdf', '', 'empty.pdf', /empty/],
      ['text', '', 'empty.txt', /empty/],
      ['text', ' \n\t ', 'blank.txt', /empty/],
      ['pdf', zip, 'archive.pdf', /ZIP/],
      ['pdf', exe, 'setup.pdf', /executable/],
      ['image', invoicePdf, 'photo.jpg', /PDF/],
      ['image', '<svg xmlns="http://www.w3.org/2000/svg"></svg>', 'a.svg', /SVG/],
      ['text', invoicePdf, 'doc.txt', /PDF/],
      ['text', Buffer.from([0x48, 0x69, 0xff, 0xfe, 0x21]), 'latin.txt', /UTF-8/],
      ['text', Buffer.from('abc\u0000def'), 'nul.txt', /UTF-8/],
      ['text', 'x'.repeat(5001), 'long.txt', /5000 characters/],
      ['webpage', '<html></html>', 'page.html', /URL/],
    ];
    for (const [type, bytes, name, why] of cases) {
      const res = await upload(type, bytes, name);
      expect(only(res), name).toEqual(['source']);
      expect(message(res), name).toMatch(why);
    }

    const two = await api.request('POST', '/v1/extractions', {
      body: form({ schema_id: schemaId, type: 'pdf' }, [
        ['source', new Blob([invoicePdf]), 'a.pdf'],
        ['source', new Blob([invoicePdf]), 'b.pdf'],
      ]),
    });
    expect(only(two)).toEqual(['source']);
    expect(message(two)).toMatch(/single file/);

    const both = await api.request('POST', '/v1/extractions', {
      body: form({ schema_id: schemaId, type: 'pdf', source: 'https://example.com/a.pdf' }, [
        ['source', new Blob([invoicePdf]), 'a.pdf'],
      ]),
    });
    expect(only(both)).toEqual(['source']);

    for (const source of [
      'data:application/pdf,%25PDF-1.4',
      'data:application/pdf;base64,%%%notbase64',
      `data:application/pdf;base64,${Buffer.from('PK\u0003\u0004zipzipzip').toString('base64')}`,
    ]) {
      const res = await api.request('POST', '/v1/extractions', {
        json: { schema_id: schemaId, type: 'pdf', source },
      });
      expect(only(res), source).toEqual(['source']);
    }

    // Other problems are still reported beside the file's, in one 422.
    const many = await upload('pdf', zip, 'x.pdf', { model: 'gpt-0', metadata: '[]' });
    expect(only(many).sort()).toEqual(['metadata', 'model', 'source']);

    expect(model.requests).toHaveLength(0);
    expect(await storedBlobs()).toBe(before);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('answers 413 past MAX_UPLOAD_BYTES and 400 for a truncated multipart body', async () => {
    const before = await storedBlobs();
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x41);
    const tooBig = await upload('text', big, 'big.txt');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ status: false, message: expect.any(String) });
    expect(await readdir(tmpDir)).toEqual([]);

    const bigPdf = Buffer.concat([invoicePdf, Buffer.alloc(MAX_UPLOAD_BYTES, 0x20)]);
    const dataUrl = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schemaId,
        type: 'pdf',
        source: `data:application/pdf;base64,${bigPdf.toString('base64')}`,
      },
    });
    expect(dataUrl.status).toBe(413);

    const boundary = 'xtboundary';
    const truncated = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="schema_id"',
      '',
      schemaId,
      `--${boundary}`,
      'Content-Disposition: form-data; name="type"',
      '',
      'pdf',
      `--${boundary}`,
      'Content-Disposition: form-data; name="source"; filename="cut.pdf"',
      'Content-Type: application/pdf',
      '',
      '%PDF-1.4 and then the connection',
    ].join('\r\n');
    const cut = await api.request('POST', '/v1/extractions', {
      body: truncated,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(cut.status).toBe(400);
    expect(cut.body.status).toBe(false);

    expect(model.requests).toHaveLength(0);
    expect(await storedBlobs()).toBe(before);
    // A body cut off mid-file ends the request before the temp file is closed: it goes just after.
    await waitFor(async () => (await readdir(tmpDir)).length === 0, 5_000);
  });
});

describe('stored bytes', () => {
  it('are stored with the row and removed with it when the extraction is deleted', async () => {
    const res = await api.request('POST', '/v1/extractions', {
      body: form({ schema_id: schemaId, type: 'pdf' }, [
        ['source', new Blob([invoicePdf]), 'keep.pdf'],
      ]),
      headers: { prefer: 'respond-async' },
    });
    expect(res.status).toBe(202);
    const id = res.body.data.id as string;
    const ref = await fileRef(id);
    expect(ref).not.toBeNull();
    const chunks = await db.query('select count(*)::int as n from blob_chunks where ref = $1', [
      ref,
    ]);
    expect(chunks.rows[0].n).toBeGreaterThan(0);

    expect((await api.request('DELETE', `/v1/extractions/${id}`)).status).toBe(200);
    const left = await db.query(
      'select (select count(*) from blobs where ref = $1)::int + (select count(*) from blob_chunks where ref = $1)::int as n',
      [ref],
    );
    expect(left.rows[0].n).toBe(0);
  });
});
