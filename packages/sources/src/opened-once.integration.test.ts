/**
 * A document converted once for its job (docs/sources.md#documents), by LibreOffice as the
 * worker runs it, and a PDF: each opened once to count its pages and read them. The reading
 * carries the PDF to the page previews, so nothing converts or opens it again.
 */
import { Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMATS } from '@xt/contract';
import { redlinedDocx, textPdf } from '@xt/testkit/fixtures';
import { createSourcePreparer } from './handlers.ts';
import type { FetchedFile, SourcePreparer } from './preparer.ts';
import type { ContentId, PreparationStore } from './preparations.ts';
import { sourceBytesOf } from './previews/source-bytes.ts';
import { testSourcesConfig } from './test-config.ts';

const config = testSourcesConfig({ PDF_MODE: 'text', CONVERT_TIMEOUT_MS: 240_000 });

let preparer: SourcePreparer;
let conversions = 0;
/** The PDFs read in a prep process: each is one opening of a PDF (handlers.ts logs each). */
let pdfReads = 0;

let laidOut: Buffer;
const docx = redlinedDocx({ pagesAfter: 1 });
const fetched: FetchedFile = {
  url: 'https://example.com/agreement.docx',
  kind: 'document',
  bytes: docx,
  contentType: FORMATS.docx.mime,
  format: 'docx',
  sha256: createHash('sha256').update(docx).digest('hex'),
};
/** Earlier preparations, as the worker's store keeps them (by content). */
function memoryStore(): PreparationStore & { kept: Map<string, string> } {
  const kept = new Map<string, string>();
  const key = (c: ContentId) => JSON.stringify(c);
  return {
    kept,
    read: (c) => Promise.resolve(kept.get(key(c))),
    write: (c, serialized) => {
      kept.set(key(c), serialized);
      return Promise.resolve();
    },
  };
}

const opts = () => ({
  model: 'gpt-4.1',
  signal: AbortSignal.timeout(300_000),
  citations: true,
});

beforeAll(async () => {
  laidOut = await textPdf(['Vendor: New Vendor GmbH', 'Clause page 2.']);
  const logs = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.includes('"pdf prepared"')) pdfReads++;
      done();
    },
  });
  preparer = createSourcePreparer(config, pino({ level: 'debug' }, logs), {
    environment: process.env,
    // Each conversion is timed as the `convert` stage: what is counted here.
    time: (stage, _type, run) => {
      if (stage === 'convert') conversions++;
      return run();
    },
  });
});

afterAll(async () => {
  await preparer.close();
});

describe('a document converted once', () => {
  it('is converted and its PDF opened once for its pages, its reading and its previews', async () => {
    conversions = 0;
    pdfReads = 0;
    const preparations = memoryStore();
    const converted = await preparer.convertUpload(
      'document',
      fetched,
      { ...opts(), preparations },
      40,
    );
    expect(converted?.pageCount).toBe(2);
    const read = converted?.read;
    if (!read) throw new Error('a short document is read as it is converted');
    const text = read.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n');
    expect(text).toContain('New Vendor GmbH');
    expect(text).toContain('Clause page 2.');
    expect(read.revisions?.message).toContain('tracked changes');
    expect(read.found).toEqual({ type: 'document', format: 'docx' });
    // Before, its pages were counted in one opening of the PDF and read in another.
    expect(pdfReads).toBe(1);

    const drawn = sourceBytesOf(read);
    if (!drawn) throw new Error('the converted PDF is kept for previews with citations');
    const previews = await preparer.renderPreviews({
      kind: 'previews',
      type: drawn.drawAs,
      bytes: drawn.bytes,
      pages: [2],
      maxImagePixels: config.MAX_IMAGE_PIXELS,
    });
    expect(previews.map((p) => p.page)).toEqual([2]);
    expect(conversions).toBe(1);

    // Kept as one job's reading is: the same document again is neither converted nor read.
    expect(preparations.kept.size).toBe(1);
    pdfReads = 0;
    expect(
      await preparer.convertUpload('document', fetched, { ...opts(), preparations }, 40),
    ).toBeUndefined();
    expect(conversions).toBe(1);
    expect(pdfReads).toBe(0);
  }, 300_000);

  it('reads no page of a document longer than one job takes, and keeps its PDF whole to cut', async () => {
    conversions = 0;
    pdfReads = 0;
    const converted = await preparer.convertUpload('document', fetched, opts(), 1);
    expect(converted?.pageCount).toBe(2);
    expect(converted?.read).toBeUndefined();
    expect(pdfReads).toBe(1);
    if (!converted) throw new Error('converted');
    const windows = await preparer.cutPdf(
      converted.pdf,
      [
        { first: 1, last: 1, total: 2 },
        { first: 2, last: 2, total: 2 },
      ],
      converted.notesPages,
    );
    expect(windows).toHaveLength(2);
    expect(conversions).toBe(1);
  }, 300_000);
});

describe('a PDF counted for page windows', () => {
  const pdf = (): FetchedFile => ({
    url: 'https://example.com/agreement.pdf',
    kind: 'pdf',
    bytes: Buffer.from(laidOut),
    contentType: FORMATS.pdf.mime,
    format: 'pdf',
    sha256: createHash('sha256').update(laidOut).digest('hex'),
  });

  it('is read in the opening that counts its pages when short enough, and its bytes kept to cut', async () => {
    pdfReads = 0;
    const preparations = memoryStore();
    const short = await preparer.countUploadPages('pdf', pdf(), { ...opts(), preparations }, 40);
    expect(short?.pageCount).toBe(2);
    expect(short?.read?.parts).toHaveLength(2);
    expect(short?.read?.found).toEqual({ type: 'pdf', format: 'pdf' });
    expect(short?.read && sourceBytesOf(short.read)?.drawAs).toBe('pdf');
    // Before, it was counted in one opening and read in another.
    expect(pdfReads).toBe(1);
    expect(preparations.kept.size).toBe(1);

    pdfReads = 0;
    const long = await preparer.countUploadPages('pdf', pdf(), opts(), 1);
    expect(long?.pageCount).toBe(2);
    expect(long?.read).toBeUndefined();
    expect(pdfReads).toBe(1);
    if (!long) throw new Error('counted');
    const windows = await preparer.cutPdf(
      long.bytes,
      [
        { first: 1, last: 1, total: 2 },
        { first: 2, last: 2, total: 2 },
      ],
      false,
    );
    expect(windows).toHaveLength(2);
  });
});
