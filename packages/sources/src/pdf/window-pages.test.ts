import { describe, expect, it } from 'vitest';
import { documentPage, windowPage, windowPageIndexes } from './window-pages.ts';

describe('a window PDF numbered as its document', () => {
  const w = { first: 41, last: 80, total: 1000 };

  it('numbers its pages from the window’s first page', () => {
    expect(documentPage(w, 1)).toBe(41);
    expect(documentPage(w, 40)).toBe(80);
    expect(windowPage(w, 41)).toBe(1);
    expect(windowPage(w, 80)).toBe(40);
    expect(windowPage(w, 40)).toBeUndefined();
    expect(windowPage(w, 81)).toBeUndefined();
  });

  it('numbers a presentation’s notes pages after all of the document’s slides', () => {
    // The window's PDF: slides 41..80, then their notes pages (41 + 1000 .. 80 + 1000).
    expect(documentPage(w, 41)).toBe(1041);
    expect(documentPage(w, 80)).toBe(1080);
    expect(windowPage(w, 1041)).toBe(41);
    expect(windowPage(w, 1080)).toBe(80);
    expect(windowPage(w, 1081)).toBeUndefined();
    for (let n = 1; n <= 80; n++) expect(windowPage(w, documentPage(w, n))).toBe(n);
  });

  it('cuts the window’s pages, and its notes pages when the export has them', () => {
    expect(windowPageIndexes(w, false)).toEqual([[40, 79]]);
    expect(windowPageIndexes(w, true)).toEqual([
      [40, 79],
      [1040, 1079],
    ]);
  });
});
