import { describe, expect, it } from 'vitest';
import type { FormatName, SourceType } from '@xt/contract';
import type { FetchedFile, UploadedSource } from '@xt/sources';
import type { ExtractionRow } from '../lifecycle.ts';
import { splitStep, type SplitOutcome } from './split-step.ts';
import type { CutWindow } from './store.ts';

const file = { name: 'f', size: 1, contentType: 'application/pdf', sha256: 'ab' };
const row = (over: Partial<ExtractionRow> = {}) =>
  ({
    id: 'x',
    sourceType: 'pdf',
    file,
    fileRef: 'ref',
    model: 'gpt-4.1',
    priority: 'standard',
    citationsRequested: false,
    ...over,
  }) as ExtractionRow;

const read = (what: string) => Promise.resolve({ parts: [{ kind: 'text' as const, text: what }] });

const URL = 'https://example.com/statement';

function fakes(pages: number, found: { kind: SourceType; format: FormatName } = PDF_FOUND) {
  const kept: { id: string; notesPages: boolean; windows: [number, number, number][] }[] = [];
  const cuts: { bytes: string; windows: { first: number; last: number; total: number }[] }[] = [];
  let converted = 0;
  const fetches: { type: SourceType; url: string }[] = [];
  // What each count or conversion read: an upload's ref, or the fetched file's bytes.
  const readFrom: string[] = [];
  const from = (file: UploadedSource | FetchedFile) =>
    'bytes' in file ? `fetched:${file.bytes.toString()}` : `upload:${file.ref}`;
  const sources = {
    fetchUrl: (type: SourceType, url: string) => {
      fetches.push({ type, url });
      // A kind rendered from its address is not fetched as a file.
      if (type === 'webpage') return Promise.resolve(undefined);
      return Promise.resolve({
        url,
        ...found,
        bytes: Buffer.from('fetched'),
        contentType: 'application/pdf',
        sha256: 'cd',
      });
    },
    prepareFetched: (fetched: FetchedFile) => read(`fetched ${fetched.kind}`),
    countUploadPages: async (
      _type: SourceType,
      file: UploadedSource | FetchedFile,
      _opts?: unknown,
      readUpTo = Infinity,
    ) => {
      readFrom.push(from(file));
      const bytes = 'bytes' in file ? file.bytes : Buffer.from('pdf');
      // Read whole as its pages are counted when short enough: nothing opens it again.
      return {
        pageCount: pages,
        bytes,
        ...(pages <= readUpTo ? { read: await read(bytes.toString()) } : {}),
      };
    },
    convertUpload: async (
      _type: SourceType,
      file: UploadedSource | FetchedFile,
      _opts: unknown,
      readUpTo = Infinity,
    ) => {
      readFrom.push(from(file));
      converted++;
      // Read whole as its pages are counted when short enough: nothing opens it again.
      return {
        pdf: Buffer.from('converted'),
        notesPages: false,
        pageCount: pages,
        content: { type: 'document' as const, sha256: 'ab', contentType: null },
        ...(pages <= readUpTo ? { read: await read('document') } : {}),
      };
    },
    cutPdf: (pdf: Uint8Array, windows: { first: number; last: number; total: number }[]) => {
      cuts.push({ bytes: Buffer.from(pdf).toString(), windows });
      return Promise.resolve(windows.map((w) => Buffer.from(`${w.first}-${w.last}`)));
    },
  };
  const keep = (id: string, pdfs: CutWindow[], notesPages: boolean) => {
    kept.push({
      id,
      notesPages,
      windows: pdfs.map((p) => {
        const [first, last] = Buffer.from(p.pdf).toString().split('-').map(Number);
        // Each window is given the PDF of its own pages.
        expect([first, last]).toEqual([p.window.firstPage, p.window.lastPage]);
        return [p.window.index, p.window.firstPage, p.window.lastPage];
      }),
    });
    return Promise.resolve(pdfs.length);
  };
  return { sources, keep, kept, cuts, fetches, readFrom, converted: () => converted };
}

const PDF_FOUND = { kind: 'pdf' as const, format: 'pdf' as const };

const signal = new AbortController().signal;

/** A long document's outcome, its windows cut as the job cuts them. */
async function cutNow(split: SplitOutcome): Promise<SplitOutcome> {
  if (split.next !== 'windows') throw new Error(`expected windows, got ${split.next}`);
  await split.cut();
  return split;
}

describe('splitStep', () => {
  it('cuts an uploaded pdf longer than SPLIT_PAGES into a PDF per window, once, and keeps them', async () => {
    const f = fakes(100);
    const split = await splitStep(f.sources, f.keep, row(), 40, { signal });
    expect(split).toMatchObject({ next: 'windows', split: { pagesTotal: 100, splitPages: 40 } });
    // An upload's kind is known: there is nothing found to tell before cutting.
    expect(split).not.toHaveProperty('found');
    expect(f.cuts).toEqual([]);
    await cutNow(split);
    expect(f.cuts).toEqual([
      {
        bytes: 'pdf',
        windows: [
          { first: 1, last: 34, total: 100 },
          { first: 35, last: 67, total: 100 },
          { first: 68, last: 100, total: 100 },
        ],
      },
    ]);
    expect(f.kept).toEqual([
      {
        id: 'x',
        notesPages: false,
        windows: [
          [0, 1, 34],
          [1, 35, 67],
          [2, 68, 100],
        ],
      },
    ]);
  });

  it('reads a pdf of SPLIT_PAGES or fewer whole from the bytes it counted', async () => {
    const f = fakes(40);
    const whole = await splitStep(f.sources, f.keep, row(), 40, { signal });
    if (whole.next !== 'whole') throw new Error(`expected whole, got ${whole.next}`);
    expect(await whole.prepare()).toEqual({ parts: [{ kind: 'text', text: 'pdf' }] });
  });

  it("reads for a model that takes no images when told, so a short source's scans go as text", async () => {
    const f = fakes(40);
    const asked: unknown[] = [];
    const sources = {
      ...f.sources,
      countUploadPages: (
        type: SourceType,
        up: UploadedSource | FetchedFile,
        opts: unknown,
        readUpTo?: number,
      ) => {
        asked.push(opts);
        return f.sources.countUploadPages(type, up, opts, readUpTo);
      },
    };
    await splitStep(sources, f.keep, row(), 40, { signal, images: false });
    await splitStep(sources, f.keep, row(), 40, { signal });
    expect(asked).toEqual([
      expect.objectContaining({ images: false }),
      expect.not.objectContaining({ images: false }),
    ]);
  });

  it('leaves batch priority, other kinds and URL kinds never a long document to one job, fetching nothing', async () => {
    const long = fakes(400);
    for (const over of [
      { priority: 'batch' as const },
      { priority: 'batch' as const, file: null, source: URL },
      { sourceType: 'image' as const },
      { sourceType: 'image' as const, file: null, source: URL },
      { sourceType: 'webpage' as const, file: null, source: URL },
    ])
      expect(await splitStep(long.sources, long.keep, row(over), 40, { signal })).toEqual({
        next: 'one-job',
      });
    expect(long.fetches).toEqual([]);
    expect(long.readFrom).toEqual([]);
  });

  it('fetches a URL pdf once: longer than SPLIT_PAGES, says what was found, then cuts from the fetched bytes', async () => {
    const f = fakes(100);
    const split = await splitStep(f.sources, f.keep, row({ file: null, source: URL }), 40, {
      signal,
    });
    expect(split).toMatchObject({
      next: 'windows',
      split: { pagesTotal: 100, splitPages: 40 },
      found: { kind: 'pdf', format: 'pdf', sha256: 'cd', contentType: 'application/pdf' },
    });
    expect(f.fetches).toEqual([{ type: 'pdf', url: URL }]);
    expect(f.readFrom).toEqual(['fetched:fetched']);
    // Nothing cut yet: an earlier answer could still be taken instead.
    expect(f.cuts).toEqual([]);
    await cutNow(split);
    expect(f.cuts.map((c) => c.bytes)).toEqual(['fetched']);
    expect(f.kept.map((k) => k.windows)).toEqual([
      [
        [0, 1, 34],
        [1, 35, 67],
        [2, 68, 100],
      ],
    ]);
  });

  it('reads a short URL pdf whole from the bytes fetched', async () => {
    const short = fakes(40);
    const whole = await splitStep(short.sources, short.keep, row({ file: null, source: URL }), 40, {
      signal,
    });
    if (whole.next !== 'whole') throw new Error(`expected whole, got ${whole.next}`);
    expect(await whole.prepare()).toEqual({ parts: [{ kind: 'text', text: 'fetched' }] });
    expect(short.fetches).toHaveLength(1);
    expect(short.cuts).toEqual([]);
  });

  it('works an auto URL by the kind fetched: a long document as windows, anything else whole from the fetch', async () => {
    const doc = fakes(90, { kind: 'document', format: 'docx' });
    const split = await splitStep(
      doc.sources,
      doc.keep,
      row({ sourceType: 'auto', file: null, source: URL }),
      40,
      { signal },
    );
    expect(split).toMatchObject({
      next: 'windows',
      split: { pagesTotal: 90, splitPages: 40 },
      found: { kind: 'document', format: 'docx' },
    });
    await cutNow(split);
    expect(doc.fetches).toEqual([{ type: 'auto', url: URL }]);
    expect(doc.readFrom).toEqual(['fetched:fetched']);
    expect(doc.converted()).toBe(1);

    const image = fakes(400, { kind: 'image', format: 'png' });
    const whole = await splitStep(
      image.sources,
      image.keep,
      row({ sourceType: 'auto', file: null, source: URL }),
      40,
      { signal },
    );
    if (whole.next !== 'whole') throw new Error(`expected whole, got ${whole.next}`);
    expect(await whole.prepare()).toEqual({ parts: [{ kind: 'text', text: 'fetched image' }] });
    expect(image.fetches).toHaveLength(1);
    expect(image.readFrom).toEqual([]);
  });

  it('converts a document once: kept for the windows when long, read whole when short', async () => {
    const long = fakes(90);
    const split = await splitStep(long.sources, long.keep, row({ sourceType: 'document' }), 40, {
      signal,
    });
    expect(split).toMatchObject({ next: 'windows', split: { pagesTotal: 90, splitPages: 40 } });
    await cutNow(split);
    // The converted PDF is cut, not kept whole.
    expect(long.cuts.map((c) => c.bytes)).toEqual(['converted']);
    expect(long.kept).toEqual([
      {
        id: 'x',
        notesPages: false,
        windows: [
          [0, 1, 30],
          [1, 31, 60],
          [2, 61, 90],
        ],
      },
    ]);
    expect(long.converted()).toBe(1);

    const short = fakes(12);
    const whole = await splitStep(short.sources, short.keep, row({ sourceType: 'document' }), 40, {
      signal,
    });
    if (whole.next !== 'whole') throw new Error(`expected whole, got ${whole.next}`);
    expect(await whole.prepare()).toEqual({ parts: [{ kind: 'text', text: 'document' }] });
    expect(short.kept).toEqual([]);
    expect(short.cuts).toEqual([]);
    expect(short.converted()).toBe(1);
  });
});
