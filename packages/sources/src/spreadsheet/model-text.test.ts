import { describe, expect, it } from 'vitest';
import { sheetParts, WINDOW_ROWS } from './model-text.ts';
import type { Sheet, Workbook } from './workbook.ts';

const texts = (book: Workbook) => sheetParts(book).map((p) => (p.kind === 'text' ? p.text : ''));

function priceList(rows: number): Sheet {
  return {
    name: 'Prices',
    headerRows: [2],
    hiddenColumns: [],
    rows: [
      { row: 1, cells: [{ col: 1, text: 'Price list 2024' }] },
      {
        row: 2,
        cells: [
          { col: 1, text: 'SKU' },
          { col: 2, text: 'Price' },
        ],
      },
      ...Array.from({ length: rows }, (_, k) => ({
        row: k + 3,
        cells: [
          { col: 1, text: `SKU-${k}` },
          { col: 2, text: `${k}.50` },
        ],
      })),
    ],
  };
}

describe('sheetParts', () => {
  it('sends each sheet as a table under its name, rows numbered and columns lettered', () => {
    const book: Workbook = {
      sheets: [
        {
          name: 'Prices',
          headerRows: [1],
          hiddenColumns: [3],
          rows: [
            {
              row: 1,
              cells: [
                { col: 2, text: 'SKU' },
                { col: 3, text: 'Cost' },
                { col: 4, text: 'Price | net' },
              ],
            },
            {
              row: 4,
              hidden: true,
              cells: [
                { col: 2, text: 'A-1' },
                { col: 4, text: 'two\nlines' },
              ],
            },
          ],
        },
        { name: 'Secret', hidden: true, headerRows: [], hiddenColumns: [], rows: [] },
      ],
    };
    expect(texts(book)).toEqual([
      [
        'Sheet 1 of 2: "Prices"',
        '| Row | B | C (hidden column) | D |',
        '|---|---|---|---|',
        '| 1 | SKU | Cost | Price \\| net |',
        '| 4 (hidden row) | A-1 |  | two lines |',
      ].join('\n'),
      'Sheet 2 of 2: "Secret" (hidden sheet): empty',
    ]);
  });

  it('cuts a long sheet into windows of rows, each headed by the header row again', () => {
    const parts = texts({ sheets: [priceList(450)] });
    expect(parts).toHaveLength(3);
    expect(parts[0]!.split('\n')[0]).toBe('Sheet 1 of 1: "Prices", rows 1–200 of 452');
    expect(parts[0]!.split('\n').slice(3, 5)).toEqual([
      '| 1 | Price list 2024 |  |',
      '| 2 | SKU | Price |',
    ]);
    const second = parts[1]!.split('\n');
    expect(second[0]).toBe('Sheet 1 of 1: "Prices", rows 201–400 of 452 (header row 2 repeated)');
    // The title above the table is not repeated; the header row is, then the window's rows.
    expect(second.slice(3, 5)).toEqual(['| 2 | SKU | Price |', '| 201 | SKU-198 | 198.50 |']);
    expect(second).toHaveLength(3 + 1 + WINDOW_ROWS);
    expect(parts[2]!.split('\n')[0]).toBe(
      'Sheet 1 of 1: "Prices", rows 401–452 of 452 (header row 2 repeated)',
    );
    // Every row is sent once, besides the repeated header.
    const rows = parts.flatMap((p) => p.split('\n').filter((l) => /^\| \d+ \| SKU-/.test(l)));
    expect(rows).toHaveLength(450);
  });

  it('cuts windows by size too, so that one stays well inside a model call', () => {
    const wide: Sheet = {
      name: 'Notes',
      headerRows: [],
      hiddenColumns: [],
      rows: Array.from({ length: 50 }, (_, k) => ({
        row: k + 1,
        cells: [{ col: 1, text: 'x'.repeat(1_000) }],
      })),
    };
    const parts = texts({ sheets: [wide] });
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) expect(p.length).toBeLessThan(14_000);
  });
});
