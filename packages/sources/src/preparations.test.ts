import { describe, expect, it, vi } from 'vitest';
import type { PreparedSource } from '@xt/contract';
import { dispatch } from './preparer.ts';
import {
  contentReadWith,
  restorePrepared,
  serializePrepared,
  withPreparations,
  type ContentId,
  type PreparationStore,
} from './preparations.ts';
import {
  keepPartBytes,
  keepSourceBytes,
  partBytesOf,
  sourceBytesOf,
} from './previews/source-bytes.ts';

const pdf: ContentId = { type: 'pdf', sha256: 'a'.repeat(64), contentType: 'application/pdf' };

function scanned(): PreparedSource {
  const prepared: PreparedSource = {
    parts: [
      { kind: 'text', text: 'Invoice 7', unit: 1 },
      { kind: 'image', dataUrl: 'data:image/png;base64,AAAA', width: 10, height: 20, unit: 2 },
    ],
    grounding: {
      kind: 'pages',
      pages: [{ page: 2, ocr: true, lines: [{ text: 'Total 12.50', box: [0.1, 0.2, 0.5, 0.25] }] }],
    },
    truncated: { message: 'pages past 100 were not read' },
  };
  return keepSourceBytes(prepared, { drawAs: 'pdf', bytes: new Uint8Array([37, 80, 68, 70]) });
}

function memoryStore() {
  const entries = new Map<string, string>();
  const read = vi.fn((c: ContentId) => Promise.resolve(entries.get(c.sha256)));
  const write = vi.fn((c: ContentId, text: string) => {
    entries.set(c.sha256, text);
    return Promise.resolve();
  });
  const store: PreparationStore = { read, write };
  return { store, read, write };
}

describe('serializePrepared and restorePrepared', () => {
  it('give back the parts, the source as read and the page bytes kept for previews', () => {
    const original = scanned();
    const restored = restorePrepared(serializePrepared(original)!)!;
    expect(restored).toEqual(original);
    expect(sourceBytesOf(restored)).toEqual({
      drawAs: 'pdf',
      bytes: new Uint8Array([37, 80, 68, 70]),
    });
  });

  it("give back an email's attachments' page bytes by part name", () => {
    const email = keepPartBytes(
      { parts: [{ kind: 'text', text: 'From: a@b.example' }] },
      new Map([
        ['scan.pdf', { drawAs: 'pdf' as const, bytes: new Uint8Array([1, 2]) }],
        ['photo.png', { drawAs: 'image' as const, bytes: new Uint8Array([3]) }],
      ]),
    );
    const restored = restorePrepared(serializePrepared(email)!)!;
    expect(partBytesOf(restored)).toEqual(partBytesOf(email));
    expect(sourceBytesOf(restored)).toBeUndefined();
  });

  it('store nothing JSON would not give back as it was', () => {
    const binary = { parts: [], meta: { raw: new Uint8Array([1]) } } as unknown as PreparedSource;
    expect(serializePrepared(binary)).toBeUndefined();
    expect(restorePrepared('{"v":2,"prepared":{"parts":[]}}')).toBeUndefined();
  });
});

describe('withPreparations', () => {
  it('reads a file once: the second time the store answers and nothing is prepared', async () => {
    const { store } = memoryStore();
    const produce = vi.fn(() => Promise.resolve(scanned()));
    const first = await withPreparations(store, pdf, produce);
    const second = await withPreparations(store, pdf, produce);
    expect(produce).toHaveBeenCalledOnce();
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(sourceBytesOf(second)?.bytes).toEqual(sourceBytesOf(first)?.bytes);
    // Other content is prepared on its own.
    await withPreparations(store, { ...pdf, sha256: 'b'.repeat(64) }, produce);
    expect(produce).toHaveBeenCalledTimes(2);
  });

  it('leaves typed text alone, and prepares as usual when the store fails', async () => {
    const { store, read, write } = memoryStore();
    const produce = vi.fn(() => Promise.resolve(scanned()));
    await withPreparations(store, { ...pdf, type: 'text' }, produce);
    expect(read).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();

    const broken: PreparationStore = {
      read: () => Promise.reject(new Error('down')),
      write: () => Promise.reject(new Error('down')),
    };
    expect(await withPreparations(broken, pdf, produce)).toEqual(scanned());
    expect(await withPreparations(undefined, pdf, produce)).toEqual(scanned());
  });

  it('never serves a reading for a model that takes no images to one that takes them, or back', async () => {
    // Keyed by the bytes alone: the reading must still be told apart.
    const { store, read } = memoryStore();
    const asText: PreparedSource = {
      parts: [{ kind: 'text', text: '--- Page 2 ---\nTotal 12.50', unit: 2 }],
      imagesAsText: { pages: 1, images: 0, leftOut: 0 },
    };
    const forImages = vi.fn(() => Promise.resolve(scanned()));
    const forText = vi.fn(() => Promise.resolve(asText));
    const textOnly = contentReadWith(pdf, { images: false });
    expect(textOnly).toEqual({ ...pdf, images: false });
    expect(contentReadWith(pdf, { images: true })).toEqual(pdf);

    expect(await withPreparations(store, pdf, forImages)).toEqual(scanned());
    expect(await withPreparations(store, textOnly, forText)).toEqual(asText);
    expect(await withPreparations(store, pdf, forImages)).toEqual(scanned());
    expect(forImages).toHaveBeenCalledTimes(2);
    expect(forText).toHaveBeenCalledOnce();
    expect(read.mock.calls.map(([c]) => c.images)).toEqual([undefined, false, undefined]);
  });

  it('is keyed by the reading when a fetched file is prepared for a model that takes no images', async () => {
    const { store, read } = memoryStore();
    const seen: (boolean | undefined)[] = [];
    const { prepareFetched } = dispatch(
      {
        pdf: {
          bytes: (_bytes, _type, opts) => {
            seen.push(opts.images);
            return Promise.resolve({ parts: [{ kind: 'text', text: 'Total 12.50' }] });
          },
        },
      },
      { fetch: () => Promise.reject(new Error('not fetched here')) },
    );
    const fetched = {
      url: 'https://files.example/a.pdf',
      kind: 'pdf' as const,
      bytes: Buffer.from('%PDF-'),
      contentType: 'application/pdf',
      format: 'pdf' as const,
      sha256: pdf.sha256,
    };
    const signal = new AbortController().signal;
    await prepareFetched(fetched, { model: 'gpt-4.1', signal, preparations: store, images: false });
    expect(seen).toEqual([false]);
    expect(read.mock.calls[0]?.[0]).toMatchObject({ sha256: pdf.sha256, images: false });
  });
});
