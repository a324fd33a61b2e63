import { describe, expect, it } from 'vitest';
import type { ExtractionRow } from '../lifecycle.ts';
import { splitStep } from './split-step.ts';

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
  const kept: { id: string; notesPages: boolean }[] = [];
  let converted = 0;
  const sources = {
    countUploadPages: () => Promise.resolve({ pageCount: pages, prepare: () => read('pdf') }),
    prepareConverted: () => read('document'),
    convertUpload: () => {
      converted++;
      return Promise.resolve({
        pdf: Buffer.from('%PDF-'),
        notesPages: false,
        pageCount: pages,
        content: { type: 'document' as const, sha256: 'ab', contentType: null },
      });
    },
  };
  const keep = (id: string, _pdf: Buffer, notesPages: boolean) => {
    kept.push({ id, notesPages });
    return Promise.resolve(true);
  };
  return { sources, keep, kept, converted: () => converted };
}

const signal = new AbortController().signal;

describe('splitStep', () => {
  it('splits an uploaded pdf longer than SPLIT_PAGES', async () => {
    const f = fakes(100);
    expect(await splitStep(f.sources, f.keep, row(), 40, { signal })).toEqual({
      next: 'windows',
      split: { pagesTotal: 100, splitPages: 40 },
    });
    expect(f.kept).toEqual([]);
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
    expect(long.kept).toEqual([{ id: 'x', notesPages: false }]);
    expect(long.converted()).toBe(1);

    const short = fakes(12);
    const whole = await splitStep(short.sources, short.keep, row({ sourceType: 'document' }), 40, {
      signal,
    });
    if (whole.next !== 'whole') throw new Error(`expected whole, got ${whole.next}`);
    expect(await whole.prepare()).toEqual({ parts: [{ kind: 'text', text: 'document' }] });
    expect(short.kept).toEqual([]);
    expect(short.converted()).toBe(1);
  });
});
