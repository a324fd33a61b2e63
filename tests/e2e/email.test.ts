/**
 * Email through the whole service (docs/sources.md#email): a message and its attachments, each
 * read by its own kind, values cited with the part they came from (and page and boxes inside a
 * PDF attachment); remote content in an HTML body never fetched; a message of thousands of parts
 * refused before the model; password-protected attachments listed and warned about. Messages
 * are written by a real MIME composer (Python's `email`); the documents attached are made by
 * LibreOffice and pdf-lib. Real API, worker, PostgreSQL and Redis; the model stand-in answers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import {
  composeEmail,
  convertWithLibreOffice,
  encryptedPdf,
  passwordProtected,
  placedTextPdf,
  realCorpusDir,
  startFixtureServer,
  type EmailSpec,
  type FixtureServer,
} from '@xt/testkit/fixtures';
import { waitFor } from '@xt/testkit';
import type { TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

const invoice = await placedTextPdf([
  [
    { text: 'ACME Supplies Ltd', x: 72, y: 720, size: 16 },
    { text: 'Invoice INV-2048', x: 72, y: 690 },
  ],
  [
    { text: 'Total due', x: 72, y: 400 },
    { text: '9,876.54 EUR', x: 400, y: 400 },
  ],
]);

const invoiceEmail: EmailSpec = {
  from: 'ACME Accounts <ap@acme.test>',
  to: 'Globex Payables <payables@globex.test>',
  subject: 'Invoice INV-2048',
  date: 'Tue, 03 Mar 2026 09:15:00 +0100',
  text: { content: 'Dear Globex,\n\nplease find invoice INV-2048 attached.\n\nACME Accounts' },
  attachments: [{ filename: 'invoice.pdf', type: 'application/pdf', content: invoice.pdf }],
};
const eml = await composeEmail(invoiceEmail);

// Whatever an HTML body or attachment refers to lives here; nothing may ever ask for it.
const canary: FixtureServer = await startFixtureServer({
  '/pixel.png': { body: 'x', contentType: 'image/png' },
});
const served: FixtureServer = await startFixtureServer({
  '/message': { body: eml, contentType: 'application/octet-stream' },
});
const allow = `127.0.0.1:${served.port},127.0.0.1:${canary.port}`;
afterAll(async () => {
  await canary.close();
  await served.close();
});

const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '90', SOURCE_ALLOWLIST: allow },
  worker: { SOURCE_ALLOWLIST: allow, MAX_EMAIL_PARTS: '100' },
});

const STRUCTURE = {
  type: 'object',
  properties: {
    supplier: { type: 'string' },
    number: { type: 'string' },
    total: { type: 'number' },
    sender: { type: 'string' },
  },
};

let schemaId: string;
test.beforeAll(async ({ api }) => {
  const res = await api.request('POST', '/v1/schemas', {
    json: { name: 'Emailed invoice', structure: STRUCTURE },
  });
  schemaId = res.body.data.id;
});

function upload(type: string, bytes: Buffer, name: string, citations = true): FormData {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', type);
  form.append('citations', String(citations));
  form.append('source', new Blob([bytes]), name);
  return form;
}

const extract = (api: TestApi, type: string, bytes: Buffer, name = 'message.eml') =>
  api.request('POST', '/v1/extractions', { body: upload(type, bytes, name) });

describe('an email with a PDF invoice attached', () => {
  test('cites each value with its part, and page and boxes inside the PDF', async ({
    api,
    model,
  }) => {
    model.setDefaultBehaviour({
      output: {
        supplier: 'ACME Supplies Ltd',
        number: 'INV-2048',
        total: 9876.54,
        sender: 'ap@acme.test',
      },
    });
    const res = await extract(api, 'email', eml);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { citations, warnings } = res.body.data;
    expect(warnings).toBeUndefined();
    expect(citations['/sender']).toMatchObject({
      grounded: true,
      part: 'body',
      quote: 'ap@acme.test',
      page: null,
      boxes: [],
    });
    expect(citations['/supplier']).toMatchObject({
      grounded: true,
      part: 'invoice.pdf',
      page: 1,
      quote: 'ACME Supplies Ltd',
    });
    expect(citations['/total']).toMatchObject({
      grounded: true,
      part: 'invoice.pdf',
      page: 2,
      quote: '9,876.54',
    });
    // The box of 9,876.54 lies inside the line it was drawn on.
    const [[x0, y0, x1, y1]] = citations['/total'].boxes;
    const [lx0, ly0, lx1, ly1] = invoice.rects[1]![1]!;
    expect(x0).toBeGreaterThanOrEqual(lx0 - 0.01);
    expect(x1).toBeLessThanOrEqual(lx1 + 0.01);
    expect(y0).toBeCloseTo(ly0, 2);
    expect(y1).toBeCloseTo(ly1, 2);
    // INV-2048 is in the body and the PDF both: the first place it is written is cited.
    expect(citations['/number']).toMatchObject({ grounded: true, quote: 'INV-2048' });

    // The model read the message as a reader sees it, then the attachment by its own kind.
    const sent = model.requests.at(-1)!.text;
    expect(sent).toContain('From: ACME Accounts <ap@acme.test>');
    expect(sent).toContain('Subject: Invoice INV-2048');
    expect(sent).toContain('please find invoice INV-2048 attached.');
    expect(sent).toContain('- invoice.pdf (PDF, ');
    expect(sent).toContain('=== Attachment: invoice.pdf (PDF) ===');
    expect(sent).toContain('9,876.54 EUR');

    const single = await api.request('GET', `/v1/extractions/${res.body.data.id}`);
    expect(single.body.data.source).toMatchObject({ type: 'email', format: 'eml' });
    expect(single.body.data.citations['/total'].part).toBe('invoice.pdf');
  });

  test('is found by `auto`, from an upload or a URL', async ({ api }) => {
    const uploaded = await extract(api, 'auto', eml, 'upload');
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.data.citations['/total']).toMatchObject({ part: 'invoice.pdf' });
    const fetched = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'auto', source: `${served.url}/message`, citations: true },
    });
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
    expect(fetched.body.data.citations['/total']).toMatchObject({ part: 'invoice.pdf', page: 2 });
    const single = await api.request('GET', `/v1/extractions/${fetched.body.data.id}`);
    expect(single.body.data.source).toMatchObject({ type: 'email', format: 'eml' });
  });
});

describe('hostile and odd messages', () => {
  test('never fetches what an HTML body or attachment refers to', async ({ api, model }) => {
    const remote = (p: string) => `${canary.url}${p}`;
    const html = `<html><head><link rel="stylesheet" href="${remote('/style.css')}">
      <style>@import url("${remote('/import.css')}"); body { background: url(${remote('/bg.png')}) }</style>
      <script src="${remote('/script.js')}"></script></head>
      <body background="${remote('/body.png')}"><p>Order 5521 confirmed.</p>
      <img src="${remote('/pixel.png')}" width="1" height="1"><img srcset="${remote('/2x.png')} 2x">
      <iframe src="${remote('/frame.html')}"></iframe><video poster="${remote('/poster.png')}"></video>
      </body></html>`;
    model.setDefaultBehaviour({ output: { number: '5521' } });
    const res = await extract(
      api,
      'email',
      await composeEmail({
        from: 'shop@example.com',
        subject: 'Your order',
        html: { content: html },
        attachments: [{ filename: 'receipt.html', type: 'text/html', content: Buffer.from(html) }],
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.citations['/number']).toMatchObject({ grounded: true, part: 'body' });
    expect(model.requests.at(-1)!.text).toContain('=== Attachment: receipt.html (HTML) ===');
    expect(canary.requests).toEqual([]);
  });

  test('refuses a message of thousands of parts before the model', async ({ api, model }) => {
    const before = model.requests.length;
    const many = await composeEmail({
      from: 'a@example.com',
      subject: 'parts',
      text: { content: 'many' },
      attachments: Array.from({ length: 3_000 }, (_, i) => ({
        filename: `p${i}.txt`,
        type: 'text/plain',
        content: Buffer.from(`${i}\n`),
      })),
    });
    const res = await extract(api, 'email', many);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'SOURCE_TOO_LARGE', errors: [{ field: 'source' }] });
    expect(res.body.errors[0].message).toMatch(/at most 100 .*MAX_EMAIL_PARTS/);
    expect(model.requests.length).toBe(before);
    const record = await api.request('GET', `/v1/extractions/${res.body.extractionId}`);
    expect(record.body.data).toMatchObject({
      status: 'failed',
      error: { code: 'SOURCE_TOO_LARGE' },
    });
  });

  test('takes an upload whose parts are 8-bit text in their own charset, not UTF-8', async ({
    api,
    model,
  }) => {
    model.setDefaultBehaviour({ output: { sender: 'juergen@example.de' } });
    const latin1 = await composeEmail({
      from: 'juergen@example.de',
      subject: 'Rechnung',
      text: {
        content: 'Grüße, die Rechnung über 1.234,50 EUR ist fällig.',
        charset: 'iso-8859-1',
        encoding: '8bit',
      },
    });
    expect(latin1.includes(Buffer.from('über', 'latin1'))).toBe(true);
    const res = await extract(api, 'auto', latin1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(model.requests.at(-1)!.text).toContain(
      'Grüße, die Rechnung über 1.234,50 EUR ist fällig.',
    );
  });

  test('reads a message with broken MIME boundaries as far as it goes, and refuses one with none', async ({
    api,
    model,
  }) => {
    const text = eml.toString('latin1');
    const outer = /boundary="([^"]+)"/.exec(text)![1]!;
    // The part after the body gets a header block of garbage, and the final boundary is gone.
    const second = text.indexOf(`--${outer}`, text.indexOf(`--${outer}`) + 1);
    const garbage = `--${outer}\r\n\u0001\u0002\u00ff no colon here\r\n::::\r\n\r\nstray text\r\n`;
    const broken = (text.slice(0, second) + garbage + text.slice(second)).replace(
      `--${outer}--`,
      '',
    );
    model.setDefaultBehaviour({ output: { total: 9876.54 } });
    const read = await extract(api, 'email', Buffer.from(broken, 'latin1'));
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data.status).toBe('completed');
    expect(read.body.data.citations['/total']).toMatchObject({ part: 'invoice.pdf', page: 2 });
    const sent = model.requests.at(-1)!.text;
    expect(sent).toContain('please find invoice INV-2048 attached.');
    expect(sent).toContain('9,876.54 EUR');

    // The declared boundary never occurs: the parts cannot be found at all.
    const before = model.requests.length;
    const lost = await extract(
      api,
      'email',
      Buffer.from(text.replace(`boundary="${outer}"`, 'boundary="not-in-this-message"'), 'latin1'),
    );
    expect(lost.status).toBe(422);
    expect(lost.body).toMatchObject({ code: 'SOURCE_UNREADABLE', errors: [{ field: 'source' }] });
    expect(lost.body.errors[0].message).toContain(
      'its Content-Type says its parts are separated by the boundary "not-in-this-message", which never occurs in it',
    );
    expect(model.requests.length).toBe(before);
    const record = await api.request('GET', `/v1/extractions/${lost.body.extractionId}`);
    expect(record.body.data).toMatchObject({ status: 'failed', charged: false });

    // The same worker goes on serving.
    const next = await extract(api, 'email', eml);
    expect(next.body.data.status).toBe('completed');
  });

  test('lists password-protected attachments as not read, warns, and reads the rest', async ({
    api,
    model,
  }) => {
    const made = await convertWithLibreOffice(
      [{ name: 'salaries.html', content: '<p>Salary total 48,200.00 EUR</p>' }],
      'docx:MS Word 2007 XML',
    );
    const sheet = await convertWithLibreOffice(
      [{ name: 'budget.csv', content: 'item,amount\nRent,1200\n' }],
      'xlsx:Calc MS Excel 2007 XML',
    );
    model.setDefaultBehaviour({ output: { total: 9876.54 } });
    const res = await extract(
      api,
      'email',
      await composeEmail({
        ...invoiceEmail,
        attachments: [
          ...invoiceEmail.attachments!,
          { filename: 'salaries.docx', content: passwordProtected(made.get('salaries')!) },
          { filename: 'budget.xlsx', content: passwordProtected(sheet.get('budget')!) },
          { filename: 'payroll.pdf', type: 'application/pdf', content: encryptedPdf() },
        ],
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe('completed');
    expect(res.body.data.citations['/total']).toMatchObject({ part: 'invoice.pdf', page: 2 });
    expect(res.body.data.warnings).toEqual([
      {
        code: 'SOURCE_TRUNCATED',
        path: '',
        message:
          'Parts of the message were not read: salaries.docx (password-protected); budget.xlsx (password-protected); payroll.pdf (password-protected).',
      },
    ]);
    const sent = model.requests.at(-1)!.text;
    expect(sent).toMatch(
      /- salaries\.docx \(password-protected Office file, .*\): not read \(password-protected\)/,
    );
    expect(sent).not.toContain('48,200.00');
  });
});

const corpus = realCorpusDir('office');

// Messages written by mail programs and Outlook (no program here writes .msg files), read in
// place when the corpus is beside the checkout: each completes, and the model is sent its
// headers and body.
describe.skipIf(!corpus)('real messages', () => {
  const files = corpus ? readdirSync(corpus).filter((f) => /\.(eml|msg)$/.test(f)) : [];

  test('every one extracts, its headers and body sent to the model', async ({ api, model }) => {
    model.setDefaultBehaviour({ output: { sender: null } });
    for (const file of files) {
      const bytes = readFileSync(path.join(corpus!, file));
      const res = await extract(api, 'auto', bytes, file);
      expect(res.status, `${file}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.status, file).toBe('completed');
      const sent = model.requests.at(-1)!.text;
      expect(sent, file).toMatch(/From: .+\n(To: .+\n)?(Cc: .+\n)?Date: .+\nSubject: .+/);
    }
  });

  test('an Outlook message in a Cyrillic code page reaches the model in Cyrillic', async ({
    api,
    model,
  }) => {
    model.setDefaultBehaviour({ output: { sender: 'no-reply@niips.ru' } });
    const bytes = readFileSync(path.join(corpus!, 'cyrillic_message.msg'));
    const res = await extract(api, 'email', bytes, 'cyrillic_message.msg');
    expect(res.body.data.citations['/sender']).toMatchObject({ grounded: true, part: 'body' });
    await waitFor(() => model.requests.at(-1));
    expect(model.requests.at(-1)!.text).toContain('Ваше сообщение с темой "FW: RTM"');
  });
});
