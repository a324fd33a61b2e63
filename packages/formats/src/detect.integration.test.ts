import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormatName } from '@xt/contract';
import {
  convertWithLibreOffice,
  declaredMacroEnabled,
  macroEnabledDocument,
  SAMPLES,
  textPdf,
} from '@xt/testkit/fixtures';
import { detectFormat } from './detect.ts';

const HTML = '<html><body><h1>Invoice 7</h1><p>Total due 12.50 EUR</p></body></html>';
const CSV = 'item,amount\nCable ties,2.00\nScrews,3.50\n';
const FODP = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:body><office:presentation><draw:page draw:name="p1"><draw:frame svg:width="20cm" svg:height="3cm" svg:x="2cm" svg:y="2cm"><draw:text-box><text:p>Revenue 4321.50 EUR</text:p></draw:text-box></draw:frame></draw:page></office:presentation></office:body></office:document>`;

/** Each format made by LibreOffice from content this test writes. */
const made = new Map<FormatName, Buffer>();
let dir: string;

beforeAll(async () => {
  const jobs: [FormatName, string, { name: string; content: string }][] = [
    ['docx', 'docx:MS Word 2007 XML', { name: 'doc.html', content: HTML }],
    ['doc', 'doc:MS Word 97', { name: 'doc.html', content: HTML }],
    ['odt', 'odt:writer8', { name: 'doc.html', content: HTML }],
    ['rtf', 'rtf:Rich Text Format', { name: 'doc.html', content: HTML }],
    ['xlsx', 'xlsx:Calc MS Excel 2007 XML', { name: 'sheet.csv', content: CSV }],
    ['xls', 'xls:MS Excel 97', { name: 'sheet.csv', content: CSV }],
    ['ods', 'ods:calc8', { name: 'sheet.csv', content: CSV }],
    ['pptx', 'pptx:Impress MS PowerPoint 2007 XML', { name: 'deck.fodp', content: FODP }],
    ['ppt', 'ppt:MS PowerPoint 97', { name: 'deck.fodp', content: FODP }],
    ['odp', 'odp:impress8', { name: 'deck.fodp', content: FODP }],
  ];
  for (const [format, to, input] of jobs) {
    const out = await convertWithLibreOffice([input], to);
    made.set(format, [...out.values()][0]!);
  }
  dir = await mkdtemp(path.join(tmpdir(), 'xt-detect-'));
}, 300_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('detectFormat', () => {
  it('recognises every office format LibreOffice writes, from bytes and from a file alike', async () => {
    for (const [format, bytes] of made) {
      expect(await detectFormat({ bytes }), format).toEqual({ format });
      const file = path.join(dir, `no-extension-${format}`);
      await writeFile(file, bytes);
      expect(await detectFormat({ path: file }), format).toEqual({ format });
    }
  });

  it('reads a macro-enabled Word document (DOCM) as the DOCX package it is', async () => {
    const docm = await macroEnabledDocument('http://127.0.0.1:9');
    expect(await detectFormat({ bytes: docm })).toEqual({ format: 'docx' });
  });

  it('reads macro-enabled workbooks and decks (XLSM, PPTM) as the XLSX and PPTX they are', async () => {
    for (const format of ['xlsx', 'pptx'] as const) {
      const bytes = declaredMacroEnabled(made.get(format)!, format);
      expect(await detectFormat({ bytes }), format).toEqual({ format });
    }
  });

  it('recognises PDFs and images by signature and text by its shape', async () => {
    expect(await detectFormat({ bytes: await textPdf(['x']) })).toEqual({ format: 'pdf' });
    expect(await detectFormat({ bytes: SAMPLES.png })).toEqual({ format: 'png' });
    const text = (s: string, name?: string) => detectFormat({ bytes: Buffer.from(s) }, { name });
    expect(await text(CSV)).toEqual({ format: 'csv' });
    expect(await text('From: a@x.org\nTo: b@x.org\nSubject: hi\n\nbody')).toEqual({
      format: 'eml',
    });
    expect(await text('# Title\n\nText', 'a.md')).toEqual({ format: 'md' });
    expect(await text('Total due 12.50', 'a.docx')).toEqual({ format: 'txt' });
  });

  it('is not fooled by a name, and says what an unread file is', async () => {
    const zip = made.get('docx')!;
    // A ZIP that is no OOXML: the DOCX's bytes with its manifest entry renamed.
    const renamed = Buffer.from(
      zip.toString('latin1').replaceAll('[Content_Types].xml', '[Content_Typez].xml'),
      'latin1',
    );
    expect(await detectFormat({ bytes: renamed }, { name: 'invoice.docx' })).toMatchObject({
      format: null,
    });
    expect(await detectFormat({ bytes: Buffer.from('MZ\x90\x00') })).toMatchObject({
      format: null,
    });
    expect(await detectFormat({ bytes: Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x00]) })).toEqual({
      format: null,
      found: 'an unrecognised binary format',
    });
    expect(await detectFormat({ bytes: Buffer.alloc(0) })).toEqual({
      format: null,
      found: 'an empty file',
    });
  });
});

// Real files made by Word, Excel, PowerPoint and Outlook, when the shared corpus is beside the
// checkout; never copied into the project.
const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/office');
const expected: Record<string, FormatName> = {
  docx: 'docx',
  doc: 'doc',
  odt: 'odt',
  xlsx: 'xlsx',
  xls: 'xls',
  pptx: 'pptx',
  eml: 'eml',
  msg: 'msg',
};

describe.skipIf(!existsSync(corpus))('detectFormat on real office files', () => {
  it('recognises each by its content, and password-protected ones as encrypted', async () => {
    for (const name of readdirSync(corpus)) {
      const want = /protected/.test(name)
        ? 'office-encrypted'
        : expected[path.extname(name).slice(1)];
      expect(await detectFormat({ path: path.join(corpus, name) }), name).toEqual({
        format: want,
      });
    }
  });
});
