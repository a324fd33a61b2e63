import { describe, expect, it } from 'vitest';
import {
  bundlePages,
  documentsOf,
  drawDocuments,
  pageRange,
  type SplitDocument,
} from './documents.ts';

const doc = (cls: string, from: number, to: number, id: string | null = null): SplitDocument => ({
  class: cls,
  pages: { from, to },
  confidence: 0.9,
  extractionId: id,
});

describe('a split bundle’s documents as drawn', () => {
  it('colours neighbours apart, cycles after eight, and leaves other grey', () => {
    const docs = [
      doc('invoice', 1, 2, 'a'),
      doc('invoice', 3, 3, 'b'),
      doc('other', 4, 4),
      ...Array.from({ length: 8 }, (_, i) => doc('contract', 5 + i, 5 + i)),
    ];
    const drawn = drawDocuments(docs);
    expect(drawn.map((d) => d.colour)).toEqual([
      'doc-colour-0',
      'doc-colour-1',
      'doc-colour-other',
      'doc-colour-2',
      'doc-colour-3',
      'doc-colour-4',
      'doc-colour-5',
      'doc-colour-6',
      'doc-colour-7',
      'doc-colour-0',
      'doc-colour-1',
    ]);
    expect(drawn.map((d) => d.number)).toEqual(docs.map((_, i) => i + 1));
  });

  it('puts every page under its document, marking where each starts', () => {
    const pages = bundlePages(drawDocuments([doc('invoice', 1, 2), doc('other', 3, 3)]));
    expect(pages.map((p) => [p.page, p.document.number, p.starts])).toEqual([
      [1, 1, true],
      [2, 1, false],
      [3, 2, true],
    ]);
  });

  it('reads only a result that is a list of documents', () => {
    expect(documentsOf({ documents: [doc('invoice', 1, 1)] })).toHaveLength(1);
    expect(documentsOf({ total: 3 })).toBeUndefined();
    expect(documentsOf(null)).toBeUndefined();
    expect(documentsOf({ documents: [{ class: 'invoice' }] })).toBeUndefined();
  });

  it('says a page range the way people write it', () => {
    expect(pageRange({ from: 3, to: 3 })).toBe('page 3');
    expect(pageRange({ from: 1, to: 2 })).toBe('pages 1–2');
  });
});
