/**
 * The real office files of the corpus kept beside the checkout (made by Word, Excel, PowerPoint,
 * Outlook and other mail programs; read in place, never copied), each through the worker's own
 * source preparation as a URL of type `auto`, as a user would send it: every one is recognised
 * as the kind and format its maker wrote, and prepares to text that reaches the model, or fails
 * as the password-protected ones must. One file at a time, each with a deadline far past what
 * LibreOffice needs on a busy machine; without the corpus (a fresh clone) this skips.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionFailure, type FormatName, type SourceType } from '@xt/contract';
import { realCorpusDir, startFixtureServer, type FixtureServer } from '@xt/testkit/fixtures';
import { createSourcePreparer } from './handlers.ts';
import type { SourcePreparer } from './preparer.ts';

const corpus = realCorpusDir('office');
const files = corpus ? readdirSync(corpus).sort() : [];

/** What each maker's file is, by its extension; a file with none here fails the test. */
const BY_EXTENSION: Record<string, { type: SourceType; format: FormatName }> = {
  '.docx': { type: 'document', format: 'docx' },
  '.doc': { type: 'document', format: 'doc' },
  '.odt': { type: 'document', format: 'odt' },
  '.pptx': { type: 'document', format: 'pptx' },
  '.xlsx': { type: 'spreadsheet', format: 'xlsx' },
  '.xls': { type: 'spreadsheet', format: 'xls' },
  '.eml': { type: 'email', format: 'eml' },
  '.msg': { type: 'email', format: 'msg' },
};
const passwordProtected = (file: string) => /protected/.test(file);

/** A file's deadline: LibreOffice took up to a minute per file at a load average of 40. */
const PER_FILE_MS = 600_000;

let server: FixtureServer;
let preparer: SourcePreparer;
const took = new Map<string, number>();

beforeAll(async () => {
  if (!corpus) return;
  server = await startFixtureServer(
    Object.fromEntries(
      files.map((file) => [
        `/${encodeURIComponent(file)}`,
        { body: readFileSync(path.join(corpus, file)), contentType: 'application/octet-stream' },
      ]),
    ),
  );
  preparer = createSourcePreparer(
    {
      SOURCE_ALLOWLIST: `127.0.0.1:${server.port}`,
      FETCH_TIMEOUT_MS: 30_000,
      MAX_REDIRECTS: 0,
      PREP_THREADS: 1,
      PREP_TIMEOUT_MS: PER_FILE_MS,
      PREP_TEXT_TIMEOUT_MS: PER_FILE_MS,
      PREP_THREAD_HEAP_MB: 1024,
      OCR_TIMEOUT_MS: 60_000,
      PDF_MODE: 'auto',
      MAX_PDF_BYTES: 50 * 1024 * 1024,
      MAX_PDF_PAGES: 1000,
      MAX_PDF_IMAGE_PAGES: 100,
      MAX_IMAGE_BYTES: 20 * 1024 * 1024,
      MAX_IMAGE_PIXELS: 50_000_000,
      RENDER_CONCURRENCY: 1,
      PAGE_TIMEOUT_MS: 45_000,
      NETWORK_IDLE_MS: 500,
      BROWSER_MAX_PAGES: 100,
      MAX_HTML_BYTES: 10 * 1024 * 1024,
      MAX_EMAIL_BYTES: 50 * 1024 * 1024,
      MAX_EMAIL_PARTS: 200,
      MAX_EMAIL_IMAGES: 20,
      MAX_SPREADSHEET_BYTES: 20 * 1024 * 1024,
      MAX_SHEET_CELLS: 200_000,
      MAX_ARCHIVE_EXPANDED_BYTES: 100 * 1024 * 1024,
      MAX_ARCHIVE_ENTRIES: 10_000,
      MAX_ARCHIVE_RATIO: 200,
      CONVERT_TIMEOUT_MS: PER_FILE_MS,
      CONVERT_MAX_MEMORY_MB: 3072,
      CONVERT_CONCURRENCY: 1,
      MAX_DOCUMENT_BYTES: 50 * 1024 * 1024,
    },
    pino({ level: 'silent' }),
    { environment: process.env },
  );
});

afterAll(async () => {
  await preparer?.close();
  await server?.close();
  // Figures, not assertions: how long each file took, for the record of a run.
  for (const [file, ms] of took) console.info(`${file}: ${(ms / 1000).toFixed(1)} s`);
});

describe.skipIf(!corpus)('real office files through source preparation', () => {
  it('has an expectation for every file in the corpus', () => {
    expect(files.length).toBeGreaterThan(0);
    const unknown = files.filter((f) => !BY_EXTENSION[path.extname(f).toLowerCase()]);
    expect(unknown).toEqual([]);
  });

  it.each(files)(
    '%s',
    async (file) => {
      const expected = BY_EXTENSION[path.extname(file).toLowerCase()]!;
      const started = performance.now();
      const prepare = preparer.prepare('auto', `${server.url}/${encodeURIComponent(file)}`, {
        model: 'gpt-4.1',
        signal: AbortSignal.timeout(PER_FILE_MS),
      });
      try {
        if (passwordProtected(file)) {
          const failure = await prepare.then(
            () => null,
            (err: unknown) => err,
          );
          expect(failure).toBeInstanceOf(ExtractionFailure);
          expect(failure).toMatchObject({ code: 'SOURCE_UNREADABLE' });
          expect((failure as Error).message).toMatch(/password-protected/);
          return;
        }
        const prepared = await prepare;
        expect(prepared.found).toEqual(expected);
        const text = prepared.parts
          .flatMap((part) => (part.kind === 'text' ? [part.text] : []))
          .join('\n');
        expect(text.trim().length).toBeGreaterThan(0);
      } finally {
        took.set(file, performance.now() - started);
      }
    },
    PER_FILE_MS + 60_000,
  );
});
