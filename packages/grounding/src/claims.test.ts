import type { Citations, GroundingLine, GroundingSource } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { buildCitations } from './index.ts';

/*
 * A scanned invoice whose OCR read the second row's quantity 11 as something else: the model
 * answered 8 there, and the only 8s on the page are other rows' own quantities.
 */

const ROW_Y = [0.3, 0.33, 0.36];
const ROWS: [string, string, string, string][] = [
  ['Cable ties', '8', '12.00', '96.00'],
  ['Steel bracket', '1l', '5.00', '55.00'],
  ['USB cable', '8', '3.50', '28.00'],
];
const lines = {
  /** Tesseract's usual reading of a table: each row one line. */
  joined: (rows = ROWS): GroundingLine[] =>
    rows.map((cells, k) => ({
      text: cells.join(' '),
      box: [0.1, ROW_Y[k]!, 0.8, ROW_Y[k]! + 0.015],
    })),
  /** Columns read as blocks of their own: each cell its own line, rows side by side. */
  cells: (rows = ROWS): GroundingLine[] =>
    rows.flatMap((cells, k) =>
      cells.map((text, c) => ({
        text,
        box: [0.1 + c * 0.2, ROW_Y[k]!, 0.25 + c * 0.2, ROW_Y[k]! + 0.015],
      })),
    ),
};
const scan = (pageLines: GroundingLine[]): GroundingSource => ({
  kind: 'pages',
  pages: [
    {
      page: 1,
      ocr: true,
      lines: [{ text: 'Invoice INV-2026-1001', box: [0.1, 0.1, 0.5, 0.12] }, ...pageLines],
    },
  ],
});
const answer = (quantities: number[]) => ({
  number: 'INV-2026-1001',
  lines: ROWS.map(([description, , unit, amount], k) => ({
    description,
    quantity: quantities[k],
    unit_price: Number(unit),
    amount: Number(amount),
  })),
});

/** The row (0-based) a citation's box is on; null when not grounded. */
function rowOf(citations: Citations, pointer: string): number | null {
  const c = citations[pointer];
  if (!c?.grounded) return null;
  return ROW_Y.findIndex((y) => Math.abs(c.boxes[0]![1] - y) < 0.005);
}

/** Every pair of two rows' values cited on overlapping boxes. */
function shared(citations: Citations): string[] {
  const boxes = Object.entries(citations).flatMap(([pointer, c]) =>
    c.boxes.map((box) => ({ item: pointer.split('/')[2], pointer, box })),
  );
  const out: string[] = [];
  for (const a of boxes)
    for (const b of boxes) {
      if (a.item === undefined || b.item === undefined || a.item >= b.item) continue;
      const [ax0, ay0, ax1, ay1] = a.box;
      const [bx0, by0, bx1, by1] = b.box;
      if (Math.min(ax1, bx1) > Math.max(ax0, bx0) && Math.min(ay1, by1) > Math.max(ay0, by0))
        out.push(`${a.pointer} ${b.pointer}`);
    }
  return out;
}

describe('no two rows share a box', () => {
  for (const [layout, pageLines] of Object.entries(lines)) {
    it(`leaves a row's misread value unfound, not cited on the row above (${layout})`, () => {
      const { citations, ungrounded } = buildCitations({
        output: answer([8, 8, 8]),
        source: scan(pageLines()),
      });
      expect(rowOf(citations, '/lines/0/quantity')).toBe(0);
      expect(rowOf(citations, '/lines/2/quantity')).toBe(2);
      expect(citations['/lines/1/quantity']).toMatchObject({ grounded: false, boxes: [] });
      expect(ungrounded).toEqual(['/lines/1/quantity']);
      for (const field of ['description', 'unit_price', 'amount'])
        for (const k of [0, 1, 2]) expect(rowOf(citations, `/lines/${k}/${field}`)).toBe(k);
      expect(shared(citations)).toEqual([]);
    });

    it(`never takes the next row's own value for a row whose value is not on it (${layout})`, () => {
      // The first row's quantity unread; the model's 8 for it is the third row's own.
      const rows = ROWS.map((r, k) =>
        k === 0 ? (['Cable ties', '', '12.00', '96.00'] as const) : r,
      );
      const { citations } = buildCitations({
        output: answer([8, 11, 8]),
        source: scan(pageLines(rows.map((r) => [...r]))),
      });
      expect(citations['/lines/0/quantity']?.grounded).toBe(false);
      expect(rowOf(citations, '/lines/2/quantity')).toBe(2);
      expect(shared(citations)).toEqual([]);
    });
  }

  it('cites a row’s value beside it when OCR read the table’s columns as blocks', () => {
    // Tesseract's reading of the scan behind the report: descriptions and quantities first, then
    // the prices, each block line by line; the second quantity (11) read as "1".
    const blocks = (quantities: string[]): GroundingLine[] => [
      ...ROWS.map(([description], k): GroundingLine => ({
        text: `${description} ${quantities[k]}`,
        box: [0.1, ROW_Y[k]!, 0.45, ROW_Y[k]! + 0.015],
      })),
      ...ROWS.map(([, , unit, amount], k): GroundingLine => ({
        text: `${unit} ${amount}`,
        box: [0.55, ROW_Y[k]! + 0.001, 0.8, ROW_Y[k]! + 0.016],
      })),
    ];
    const misread = buildCitations({
      output: answer([8, 8, 8]),
      source: scan(blocks(['8', '1', '8'])),
    }).citations;
    expect([0, 1, 2].map((k) => rowOf(misread, `/lines/${k}/quantity`))).toEqual([0, null, 2]);
    expect(shared(misread)).toEqual([]);
    const read = buildCitations({
      output: answer([8, 11, 8]),
      source: scan(blocks(['8', '11', '8'])),
    }).citations;
    for (const field of ['description', 'quantity', 'unit_price', 'amount'])
      for (const k of [0, 1, 2]) expect(rowOf(read, `/lines/${k}/${field}`), field).toBe(k);
  });

  it('still cites a value every row takes from one heading, for every row', () => {
    const source = scan([
      { text: 'Currency: EUR', box: [0.1, 0.2, 0.4, 0.215] },
      ...lines.joined(),
    ]);
    const output = {
      lines: ROWS.map(([description], k) => ({ description, currency: 'EUR', row: k })),
    };
    const { citations } = buildCitations({ output, source });
    for (const k of [0, 1, 2]) expect(citations[`/lines/${k}/currency`]?.grounded).toBe(true);
  });

  it('leaves a value written once for a group of rows to the first row that took it', () => {
    const content = ['2026-03-05', 'Coffee 3.50', 'Tea 2.00', '2026-03-06', 'Cake 4.00'].join('\n');
    const { citations } = buildCitations({
      output: {
        items: [
          { date: '2026-03-05', name: 'Coffee', amount: 3.5 },
          { date: '2026-03-05', name: 'Tea', amount: 2 },
          { date: '2026-03-06', name: 'Cake', amount: 4 },
        ],
      },
      source: { kind: 'text', content },
    });
    expect(citations['/items/0/date']).toMatchObject({ grounded: true, start: 0 });
    expect(citations['/items/1/date']?.grounded).toBe(false);
    expect(citations['/items/2/date']).toMatchObject({ grounded: true, quote: '2026-03-06' });
  });

  it('lets two lists cite one place: the rule is between the rows of one list', () => {
    const { citations } = buildCitations({
      output: { lines: answer([8, 8, 8]).lines, quantities: [8, 8] },
      source: scan(lines.joined()),
    });
    expect(rowOf(citations, '/quantities/0')).toBe(0);
    expect(rowOf(citations, '/quantities/1')).toBe(2);
  });
});
