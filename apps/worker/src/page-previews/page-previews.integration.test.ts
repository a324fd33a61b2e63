/**
 * Page previews against a real prep pool (pdf.js and sharp on a thread) and the real blob store
 * in PostgreSQL: one JPEG about 1000 px wide per page that carries a grounded citation, stored
 * and named in `page_images`; images turned upright as OCR reads them; nothing for other sources,
 * and a source that cannot be drawn costs the preview, never the extraction.
 */
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresBlobStore, readAll, type BlobStore } from '@xt/blob-store';
import type { Citation, Citations } from '@xt/contract';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { corruptPdf, exifRotatedJpeg, textPdf } from '@xt/testkit/fixtures';
import { createPrepPool, type PrepPool } from '@xt/sources';
import { citedPages, storePagePreviews, type PagePreviewDeps } from './index.ts';

let database: TestDatabase;
let handle: DbHandle;
let store: BlobStore;
let pool: PrepPool;
let deps: PagePreviewDeps;
const warnings: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2 });
  store = createPostgresBlobStore(handle.db);
  pool = createPrepPool({ size: 1, taskTimeoutMs: 60_000 });
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
  deps = {
    db: handle.db,
    store,
    render: (task) => pool.runPrep(task),
    maxImagePixels: 50_000_000,
    logger,
  };
});

afterAll(async () => {
  await pool?.close();
  await handle?.close();
  await database?.drop();
});

const cite = (page: number | null, grounded = true): Citation => ({
  grounded,
  quote: grounded ? 'x' : null,
  page,
  boxes: grounded && page !== null ? [[0.1, 0.1, 0.5, 0.12]] : [],
  start: null,
  end: null,
  confidence: null,
});

async function jpegOf(ref: string) {
  const bytes = await readAll(store, ref, 10_000_000);
  return { bytes, meta: await sharp(bytes).metadata() };
}

describe('citedPages', () => {
  it('lists each page with a grounded, boxed citation once, ascending', () => {
    const citations: Citations = {
      '/a': cite(3),
      '/b': cite(1),
      '/c': cite(3),
      '/d': cite(2, false),
      '/e': { ...cite(5), boxes: [] },
    };
    expect(citedPages(citations)).toEqual([1, 3]);
    expect(citedPages(null)).toEqual([]);
  });
});

describe('storePagePreviews', () => {
  it('stores a JPEG 1000 px wide of each cited PDF page and names it by page', async () => {
    const pdf = await textPdf(['First page', 'Second page', 'Third page: total 12.50']);
    const images = await storePagePreviews(deps, {
      file: { drawAs: 'pdf', bytes: new Uint8Array(pdf) },
      citations: { '/title': cite(1), '/total': cite(3), '/missing': cite(null, false) },
    });
    expect(Object.keys(images ?? {})).toEqual(['1', '3']);
    for (const ref of Object.values(images!)) {
      const { bytes, meta } = await jpegOf(ref);
      expect(meta.format).toBe('jpeg');
      expect(meta.width).toBe(1000);
      // US Letter keeps its proportions (792 / 612).
      expect(meta.height).toBe(Math.round((1000 * 792) / 612));
      expect(bytes.length).toBeLessThan(300_000);
    }
    // The page is drawn: its text makes the top-left quarter darker than a blank page.
    const { bytes } = await jpegOf(images!['3']!);
    const stats = await sharp(bytes).extract({ left: 0, top: 0, width: 500, height: 300 }).stats();
    expect(stats.channels[0]!.min).toBeLessThan(100);
  });

  it('turns an image upright as OCR reads it, at most 1000 px wide', async () => {
    const images = await storePagePreviews(deps, {
      file: { drawAs: 'image', bytes: new Uint8Array(await exifRotatedJpeg()) },
      citations: { '/colour': cite(1) },
    });
    const { meta } = await jpegOf(images!['1']!);
    // Stored 400 × 200 with EXIF orientation 6: upright it is 200 × 400, never enlarged.
    expect([meta.width, meta.height]).toEqual([200, 400]);
  });

  it("draws the cited pages of an email's PDF attachments, each named by page and part", async () => {
    const invoice = await textPdf(['Invoice', 'Total 12.50']);
    const terms = await textPdf(['Terms']);
    const inPart = (part: string, page: number): Citation => ({ ...cite(page), part });
    const images = await storePagePreviews(deps, {
      file: undefined,
      parts: new Map([
        ['invoice.pdf', { drawAs: 'pdf', bytes: new Uint8Array(invoice) }],
        ['fwd.eml/terms.pdf', { drawAs: 'pdf', bytes: new Uint8Array(terms) }],
      ]),
      citations: {
        '/sender': { ...cite(null), part: 'body' },
        '/total': inPart('invoice.pdf', 2),
        '/terms': inPart('fwd.eml/terms.pdf', 1),
      },
    });
    expect(Object.keys(images ?? {}).sort()).toEqual(['1:fwd.eml/terms.pdf', '2:invoice.pdf']);
    const { meta } = await jpegOf(images!['2:invoice.pdf']!);
    expect(meta).toMatchObject({ format: 'jpeg', width: 1000 });
  });

  it('stores nothing for a source without pages, or without a value on a page', async () => {
    const none = { '/a': cite(null) };
    expect(
      await storePagePreviews(deps, {
        file: undefined,
        citations: none,
      }),
    ).toBeNull();
    expect(
      await storePagePreviews(deps, {
        file: { drawAs: 'pdf', bytes: new Uint8Array(await textPdf(['x'])) },
        citations: { '/a': cite(1, false) },
      }),
    ).toBeNull();
  });

  it('gives up on a source it cannot draw without failing, and says so', async () => {
    const images = await storePagePreviews(deps, {
      file: { drawAs: 'pdf', bytes: new Uint8Array(corruptPdf()) },
      citations: { '/a': cite(1) },
    });
    expect(images).toBeNull();
    expect(warnings.join('\n')).toContain('page previews not stored');
  });
});
