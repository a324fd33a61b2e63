/**
 * Files built to hurt a reader, through the whole service with the real LibreOffice
 * (docs/sources.md): expansion bombs and sheets of millions of cells fail SOURCE_TOO_LARGE,
 * damaged containers fail SOURCE_UNREADABLE or are refused at upload, all before any model call
 * and uncharged, and without LibreOffice ever being started on a bomb. CONVERTER_PATH is a
 * wrapper that notes each file it is given, then runs Debian's soffice. The files start as
 * LibreOffice wrote them and are then cut, padded or rewritten here. Real API, worker,
 * PostgreSQL and Redis.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { describe, expect } from 'vitest';
import { openTestPool } from '@xt/testkit';
import {
  convertWithLibreOffice,
  expansionBomb,
  flatPresentation,
  flatTextDocument,
  officeFile,
  SOFFICE,
  withEntries,
  worksheetOfCells,
} from '@xt/testkit/fixtures';
import type { TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';
import { uploadAndWait } from '../support/uploads.ts';

// Writable by the unprivileged user the converter runs as.
const scripts = await mkdtemp(path.join(os.tmpdir(), 'xt-e2e-hostile-'));
await chmod(scripts, 0o777);
const calls = path.join(scripts, 'converted.log');
await writeFile(calls, '');
await chmod(calls, 0o666);
const soffice = path.join(scripts, 'soffice');
// The input is the last argument.
await writeFile(
  soffice,
  `#!/bin/sh\nfor a do input=$a; done\necho "$input" >> ${calls}\nexec ${SOFFICE} "$@"\n`,
);
await chmod(soffice, 0o755);
const converted = async () => (await readFile(calls, 'utf8')).split('\n').filter(Boolean);

const test = stackTest({
  api: { EXTRACTION_WAIT_SECONDS: '120' },
  worker: { CONVERTER_PATH: soffice, JOB_ATTEMPTS: '1', MAX_SHEET_CELLS: '200000' },
});

const made = {
  docx: (
    await convertWithLibreOffice(
      [{ name: 'memo.html', content: '<p>Total 12.50 EUR</p>' }],
      'docx:MS Word 2007 XML',
    )
  ).get('memo')!,
  xlsx: (
    await convertWithLibreOffice(
      [{ name: 'budget.csv', content: 'item,amount\nRent,1200\n' }],
      'xlsx:Calc MS Excel 2007 XML',
    )
  ).get('budget')!,
  odt: await officeFile(flatTextDocument({ paragraphs: ['Total 12.50 EUR'] }), 'odt'),
  pptx: await officeFile(
    flatPresentation([{ title: 'Total 12.50 EUR', lines: ['Quarterly figures'] }]),
    'pptx',
  ),
};
const typeOf = (format: keyof typeof made) => (format === 'xlsx' ? 'spreadsheet' : 'document');

let db: pg.Pool;
let schemaId: string;
test.beforeAll(async ({ api }) => {
  db = openTestPool(api.database.url);
  const res = await api.request('POST', '/v1/schemas', {
    json: {
      name: 'Total',
      structure: { type: 'object', properties: { total: { type: 'number' } } },
    },
  });
  schemaId = res.body.data.id;
});
test.afterAll(async () => {
  await db?.end();
  await rm(scripts, { recursive: true, force: true });
});

const submit = (api: TestApi, type: string, bytes: Buffer, name: string) =>
  uploadAndWait(api, db, { schemaId, type, bytes, name });

function uploadForm(type: string, bytes: Buffer, name: string): FormData {
  const form = new FormData();
  form.append('schema_id', schemaId);
  form.append('type', type);
  form.append('source', new Blob([bytes]), name);
  return form;
}

const uncharged = { status: 'failed', charged: false, total_tokens: 0 };

describe('hostile files', () => {
  test('expansion bombs fail as too large, before LibreOffice or any reader inflates them', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    for (const format of ['docx', 'xlsx', 'odt', 'pptx'] as const) {
      // About 50 KB whose directory declares 4 GiB: 256 entries of 16 MiB of zeros, one data.
      const bomb = expansionBomb(made[format]);
      expect(bomb.length).toBeLessThan(60_000);
      const row = await submit(api, typeOf(format), bomb, `bomb.${format}`);
      expect(row, format).toMatchObject({ ...uncharged, error_code: 'SOURCE_TOO_LARGE' });
      expect(row.error_message).toMatch(
        /is an archive whose entry .* expands \d+ times; at most 200/,
      );
    }
    expect(model.requests.length).toBe(before);
    expect(await converted()).toEqual([]);
  }, 300_000);

  test('a sheet of millions of cells fails at the cell bound, XLSX or CSV', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    // A1:J200000: two million cells, 46 MB of XML in a few MB of XLSX.
    const xlsx = withEntries(made.xlsx, {
      'xl/worksheets/sheet1.xml': worksheetOfCells(10, 200_000),
    });
    const csv = Buffer.from(
      Array.from({ length: 200_000 }, (_, r) => `${r},1,2,3,4,5,6,7,8,9\n`).join(''),
    );
    for (const [bytes, name] of [
      [xlsx, 'cells.xlsx'],
      [csv, 'cells.csv'],
    ] as const) {
      const row = await submit(api, 'spreadsheet', bytes, name);
      expect(row, name).toMatchObject({
        ...uncharged,
        error_code: 'SOURCE_TOO_LARGE',
        error_message:
          'The spreadsheet has more than 200,000 cells with a value; at most 200,000 are accepted.',
      });
    }
    expect(model.requests.length).toBe(before);
    expect(await converted()).toEqual([]);
  }, 300_000);

  test('an Office file without a readable [Content_Types].xml is refused at upload, naming source', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    const manifest = '[Content_Types].xml';
    for (const format of ['docx', 'xlsx'] as const) {
      // The manifest is what says which part is the document: without it LibreOffice cannot open
      // the DOCX either ("source file could not be loaded").
      for (const [damage, content] of [
        ['missing', null],
        ['garbage', 'garbage \u0000 not xml'],
      ] as const) {
        const bytes = withEntries(made[format], { [manifest]: content });
        for (const type of ['auto', typeOf(format)]) {
          const res = await api.request('POST', '/v1/extractions', {
            body: uploadForm(type, bytes, `${damage}.${format}`),
          });
          expect(res.status, `${format} ${damage} ${type}`).toBe(422);
          expect(res.body.errors).toHaveLength(1);
          expect(res.body.errors[0].field).toBe('source');
          expect(res.body.errors[0].message).toContain(
            `the file is a ZIP archive with ${format === 'docx' ? "a Word document's" : "an Excel workbook's"} parts but no readable [Content_Types].xml (a damaged ${format.toUpperCase()} file)`,
          );
        }
      }
    }
    expect(model.requests.length).toBe(before);
    expect(await converted()).toEqual([]);
  });

  test('truncated packages fail as unreadable, before LibreOffice is started', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    for (const format of ['docx', 'xlsx', 'pptx', 'odt'] as const) {
      const cut = made[format].subarray(0, Math.floor(made[format].length * 0.6));
      const row = await submit(api, typeOf(format), Buffer.from(cut), `cut.${format}`);
      expect(row, format).toMatchObject({ ...uncharged, error_code: 'SOURCE_UNREADABLE' });
      expect(row.error_message, format).toMatch(
        /^The (document|spreadsheet) is not a readable archive: /,
      );
    }
    expect(model.requests.length).toBe(before);
    expect(await converted()).toEqual([]);
  }, 300_000);

  // Last: the one test here that lets LibreOffice start.
  test('an Office file whose [Content_Types].xml names its document but is cut off', async ({
    api,
    model,
  }) => {
    const before = model.requests.length;
    const manifest = '[Content_Types].xml';
    // The manifest as far as the override that names the document, then cut off mid-element.
    const cutAfter = (part: string, type: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="${part}" ContentType="application/vnd.openxmlformats-officedocument.${type}.main+xml"/><Override PartName=`;
    // Detection still finds the DOCX (the override names its document); LibreOffice cannot open
    // it, and says so.
    const docx = withEntries(made.docx, {
      [manifest]: cutAfter('/word/document.xml', 'wordprocessingml.document'),
    });
    const row = await submit(api, 'document', docx, 'cut-manifest.docx');
    expect(row).toMatchObject({
      ...uncharged,
      error_code: 'SOURCE_UNREADABLE',
      error_message: 'LibreOffice could not read the DOCX file: it may be damaged.',
    });
    expect((await converted()).filter((f) => f.endsWith('.docx'))).toHaveLength(1);
    const xlsx = withEntries(made.xlsx, {
      [manifest]: cutAfter('/xl/workbook.xml', 'spreadsheetml.sheet'),
    });
    const sheet = await submit(api, 'spreadsheet', xlsx, 'cut-manifest.xlsx');
    // The spreadsheet reader finds the workbook through its relationships, not the manifest:
    // the sheet is read whole.
    expect(sheet).toMatchObject({ status: 'completed', error_code: null });
    expect(model.requests.length).toBe(before + 1);
    expect(model.requests.at(-1)!.text).toMatch(/Rent.*1200/s);
  });
});
