/**
 * A model that takes no images, through the worker's own source preparation (prep process,
 * fetch, preparations): an image and a scanned PDF fetched by URL reach it as OCR text, and
 * the same file read for a model that takes images is never answered from the text reading.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scannedPdf, startFixtureServer, textImagePng } from '@xt/testkit/fixtures';
import type { FixtureServer } from '@xt/testkit/fixtures';
import { createSourcePreparer } from './handlers.ts';
import { testSourcesConfig } from './test-config.ts';
import type { ContentId, PreparationStore } from './preparations.ts';
import type { SourcePreparer } from './preparer.ts';

const config = testSourcesConfig();

let server: FixtureServer;
let preparer: SourcePreparer;

beforeAll(async () => {
  server = await startFixtureServer({
    '/receipt.png': {
      body: await textImagePng(['Receipt R-19', 'Paid 40.00 EUR']),
      contentType: 'image/png',
    },
    '/scan.pdf': {
      body: await scannedPdf(['Invoice INV-77 total 12.50']),
      contentType: 'application/pdf',
    },
  });
  preparer = createSourcePreparer(
    { ...config, SOURCE_ALLOWLIST: `127.0.0.1:${server.port}` },
    pino({ level: 'silent' }),
    { environment: process.env },
  );
});

afterAll(async () => {
  await preparer?.close();
  await server?.close();
});

/** Keyed as a careless store might be: by the bytes alone. */
function bytesKeyedStore() {
  const entries = new Map<string, string>();
  const keys: ContentId[] = [];
  const store: PreparationStore = {
    read: (c) => {
      keys.push(c);
      return Promise.resolve(entries.get(c.sha256));
    },
    write: (c, text) => {
      entries.set(c.sha256, text);
      return Promise.resolve();
    },
  };
  return { store, keys };
}

const signal = () => AbortSignal.timeout(120_000);

describe('source preparation for a model that takes no images', () => {
  it('sends a fetched image as its OCR text, with page 1 and boxes kept without citations', async () => {
    const prepared = await preparer.prepare('image', `${server.url}/receipt.png`, {
      model: 'gpt-4.1',
      signal: signal(),
      images: false,
    });
    expect(prepared.parts).toEqual([
      { kind: 'text', text: 'Receipt R-19\nPaid 40.00 EUR', unit: 1 },
    ]);
    expect(prepared.imagesAsText).toEqual({ pages: 0, images: 1, leftOut: 0 });
    expect(prepared.grounding).toMatchObject({
      kind: 'pages',
      pages: [
        { page: 1, ocr: true, lines: [{ text: 'Receipt R-19' }, { text: 'Paid 40.00 EUR' }] },
      ],
    });
  });

  it('sends a scanned PDF page as text, and never serves one reading for the other', async () => {
    const { store, keys } = bytesKeyedStore();
    const url = `${server.url}/scan.pdf`;
    const textOnly = { model: 'gpt-4.1' as const, preparations: store, images: false };
    const read = await preparer.prepare('pdf', url, { ...textOnly, signal: signal() });
    expect(read.parts).toEqual([
      { kind: 'text', text: '--- Page 1 ---\nInvoice INV-77 total 12.50', unit: 1 },
    ]);
    expect(read.imagesAsText).toEqual({ pages: 1, images: 0, leftOut: 0 });

    const forImages = await preparer.prepare('pdf', url, {
      model: 'gpt-4.1',
      signal: signal(),
      preparations: store,
    });
    expect(forImages.parts.map((p) => p.kind)).toEqual(['text', 'image']);
    expect(forImages.imagesAsText).toBeUndefined();
    expect(keys.map((k) => k.images)).toEqual([false, undefined]);
  });
});
