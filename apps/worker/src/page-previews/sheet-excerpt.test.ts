import { describe, expect, it } from 'vitest';
import type { Citation, GroundingSource } from '@xt/contract';
import { sheetExcerpt } from './sheet-excerpt.ts';

const rows = (n: number) =>
  Array.from({ length: n }, (_, k) => ({
    row: k + 1,
    cells: [
      { col: 1, text: k === 0 ? 'SKU' : `A-${k}` },
      { col: 2, text: 'x'.repeat(k === 5 ? 1_000 : 3) },
    ],
  }));

const book: GroundingSource = {
  kind: 'sheets',
  sheets: [
    { name: 'Prices', hiddenColumns: [2], headerRows: [1], rows: rows(100) },
    { name: 'Other', hiddenColumns: [], rows: rows(3) },
  ],
};

const cited = (sheet: string, cell: string): Citation => ({
  grounded: true,
  quote: 'q',
  page: null,
  boxes: [],
  start: null,
  end: null,
  confidence: null,
  sheet,
  cell,
});

describe('sheetExcerpt', () => {
  it('keeps the header rows and the rows near each cited cell of the sheets cited', () => {
    const excerpt = sheetExcerpt(book, {
      '/a': cited('Prices', 'A20'),
      '/b': cited('Prices', 'B60'),
      '/c': { ...cited('Prices', 'A90'), grounded: false },
    });
    expect(excerpt?.sheets.map((s) => s.name)).toEqual(['Prices']);
    const kept = excerpt!.sheets[0]!;
    expect(kept.rows.map((r) => r.row)).toEqual([
      1,
      ...Array.from({ length: 17 }, (_, k) => 12 + k),
      ...Array.from({ length: 17 }, (_, k) => 52 + k),
    ]);
    expect(kept).toMatchObject({ hiddenColumns: [2], headerRows: [1] });
  });

  it('cuts long cell texts, and has nothing for other sources or without cited cells', () => {
    const excerpt = sheetExcerpt(book, { '/a': cited('Prices', 'A6') });
    expect(excerpt!.sheets[0]!.rows.find((r) => r.row === 6)!.cells[1]!.text).toHaveLength(300);
    expect(sheetExcerpt(book, {})).toBeNull();
    expect(sheetExcerpt({ kind: 'plain', text: 'x' }, { '/a': cited('Prices', 'A6') })).toBeNull();
  });
});
