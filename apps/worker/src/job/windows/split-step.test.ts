import { describe, expect, it } from 'vitest';
import type { ExtractionRow } from '../lifecycle.ts';
import { splitStep } from './split-step.ts';
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

function fakes(pages: number) {
  const kept: { id: string; notesPages: boolean; windows: [number, number, number][] }[] = [];
  const cuts: { bytes: string; windows: { first: number; last: number; total: number }[] }[] = [];
  let converted = 0;
  const sources = {
    countUploadPages: () =>
      Promise.resolve({ pageCount: pages, bytes: Buffer.from('pdf'), prepare: () => read('pdf') }),
    prepareConverted: () => read('document'),
    convertUpload: () => {
      converted++;
      return Promise.resolve({
        pdf: Buffer.from('converted'),
        notesPages: false,
        pageCount: pages,
        content: { type: 'document' as const, sha256: 'ab', contentType: null },
      });
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
  return { sources, keep, kept, cuts, converted: () => converted };
}

const signal = new AbortController().signal;

describe('splitStep', () => {
  it('cuts an uploaded pdf longer than SPLIT_PAGES into a PDF per window, once, and keeps them', async () => {
    const f = fakes(100);
    expect(await splitStep(f.sources, f.keep, row(), 40, { signal })).toEqual({
      next: 'windows',
      split: { pagesTotal: 100, splitPages: 40 },
    });
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

  it('leaves a URL source, batch priority and other kinds to one job', async () => {
    const long = fakes(400);
    expect(await splitStep(long.sources, long.keep, row({ file: null }), 40, { signal })).toEqual({
      next: 'one-job',
    });
    expect(
      await splitStep(long.sources, long.keep, row({ priority: 'batch' }), 40, { signal }),
    ).toEqual({ next: 'one-job' });
    expect(
      await splitStep(long.sources, long.keep, row({ sourceType: 'image' }), 40, { signal }),
    ).toEqual({ next: 'one-job' });
  });

  it('converts a document once: kept for the windows when long, read whole when short', async () => {
    const long = fakes(90);
    const split = await splitStep(long.sources, long.keep, row({ sourceType: 'document' }), 40, {
      signal,
    });
    expect(split).toEqual({ next: 'windows', split: { pagesTotal: 90, splitPages: 40 } });
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
