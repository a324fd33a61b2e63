import {
  cellRef,
  CitationsSchema,
  type GroundingRow,
  type GroundingSheet,
  type GroundingSource,
} from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { buildCitations } from './index.ts';

/** A sheet from rows of cell texts (null: an empty cell), numbered from `first`. */
function sheet(name: string, rows: (string | null)[][], first = 1): GroundingSheet {
  return {
    name,
    hiddenColumns: [],
    rows: rows.map((cells, k): GroundingRow => ({
      row: first + k,
      cells: cells.flatMap((text, c) => (text === null ? [] : [{ col: c + 1, text }])),
    })),
  };
}

/** A price list whose rows repeat their prices and descriptions, and a notes sheet. */
const book: GroundingSource = {
  kind: 'sheets',
  sheets: [
    sheet('Prices', [
      ['Price list 2024'],
      ['SKU', 'Description', 'Unit price', 'Qty', 'Amount', 'Since'],
      ['A-100', 'Widget', '2.00', '3', '6.00', '2024-03-05'],
      ['A-101', 'Gadget\nwith two lines', '2.00', '1', '2.00', '2024-03-05'],
      ['A-102', 'Widget', '1,234.50', '2', '2,469.00', '2023-12-31'],
      ['A-103', 'Widget', '2.00', '5', '10.00', null],
    ]),
    sheet('Contacts', [
      ['First', 'Last', 'Phone'],
      ['Ada', 'Lovelace', '+44 20 7946 0000'],
    ]),
  ],
};

describe('citations in a spreadsheet', () => {
  it('name the sheet and the cell, quote the cell as displayed, and have no page', () => {
    const { citations, ungrounded } = buildCitations({
      output: { price: 1234.5, since: '2023-12-31', name: 'Gadget with two lines', missing: 'Z' },
      source: book,
    });
    expect(CitationsSchema.parse(citations)).toEqual(citations);
    expect(citations['/price']).toEqual({
      grounded: true,
      quote: '1,234.50',
      page: null,
      boxes: [],
      start: null,
      end: null,
      confidence: null,
      sheet: 'Prices',
      cell: 'C5',
    });
    expect(citations['/since']).toMatchObject({ cell: 'F5', quote: '2023-12-31' });
    // A cell of two lines is quoted as the sheet shows it, line break included.
    expect(citations['/name']).toMatchObject({
      sheet: 'Prices',
      cell: 'B4',
      quote: 'Gadget\nwith two lines',
    });
    expect(citations['/missing']).toMatchObject({ grounded: false, quote: null });
    expect(citations['/missing']).not.toHaveProperty('cell');
    expect(ungrounded).toEqual(['/missing']);
  });

  it('quote the whole cell a value is read in, not the part of it that matched', () => {
    const { citations } = buildCitations({
      output: { po: 'PO-4471' },
      source: { kind: 'sheets', sheets: [sheet('S', [['Reference: PO-4471 (open)']])] },
    });
    expect(citations['/po']).toMatchObject({ cell: 'A1', quote: 'Reference: PO-4471 (open)' });
  });

  it('put each item of an array on its own sheet row, in order, however the rows repeat', () => {
    const items = [
      { sku: 'A-100', description: 'Widget', unit_price: 2, qty: 3, amount: 6 },
      { sku: 'A-101', description: 'Gadget with two lines', unit_price: 2, qty: 1, amount: 2 },
      { sku: 'A-102', description: 'Widget', unit_price: 1234.5, qty: 2, amount: 2469 },
      { sku: 'A-103', description: 'Widget', unit_price: 2, qty: 5, amount: 10 },
    ];
    const { citations, ungrounded } = buildCitations({ output: { lines: items }, source: book });
    expect(ungrounded).toEqual([]);
    const columns = { sku: 1, description: 2, unit_price: 3, qty: 4, amount: 5 };
    items.forEach((item, k) => {
      for (const [field, col] of Object.entries(columns)) {
        const c = citations[`/lines/${k}/${field}`]!;
        expect(c, `${k}/${field}`).toMatchObject({ sheet: 'Prices', cell: cellRef(col, k + 3) });
      }
    });
    // Unit price and amount both 2.00 on row 4: each its own cell.
    expect(citations['/lines/1/amount']).toMatchObject({ cell: 'E4', quote: '2.00' });
  });

  it('find an identifier that reads as a currency code and a number as the identifier', () => {
    // `ORD-0001` reads as the currency ORD and -1: it is the order, not the quantity 1 beside it.
    const orders: GroundingSource = {
      kind: 'sheets',
      sheets: [
        sheet('Orders', [
          ['Order', 'Qty'],
          ['ORD-0001', '1'],
          ['ORD-0002', '2'],
        ]),
      ],
    };
    const { citations } = buildCitations({
      output: {
        orders: [
          { order: 'ORD-0001', qty: 1 },
          { order: 'ORD-0002', qty: 2 },
        ],
      },
      source: orders,
    });
    expect(citations['/orders/0/order']).toMatchObject({ cell: 'A2', quote: 'ORD-0001' });
    expect(citations['/orders/0/qty']).toMatchObject({ cell: 'B2', quote: '1' });
    expect(citations['/orders/1/order']).toMatchObject({ cell: 'A3', quote: 'ORD-0002' });
  });

  it('cite a value read across neighbouring cells by its first cell, quoting the cells', () => {
    const { citations } = buildCitations({
      output: { name: 'Ada Lovelace', phone: '+44 20 7946 0000' },
      source: book,
    });
    expect(citations['/name']).toMatchObject({
      sheet: 'Contacts',
      cell: 'A2',
      quote: 'Ada Lovelace',
    });
    expect(citations['/phone']).toMatchObject({ sheet: 'Contacts', cell: 'C2' });
  });

  it('name the part, the sheet and the cell of a spreadsheet attached to an email', () => {
    const email: GroundingSource = {
      kind: 'parts',
      parts: [
        { part: 'body', source: { kind: 'plain', text: 'Prices attached.' } },
        { part: 'prices.xlsx', source: book },
      ],
    };
    const { citations } = buildCitations({ output: { price: 1234.5 }, source: email });
    expect(citations['/price']).toMatchObject({
      part: 'prices.xlsx',
      sheet: 'Prices',
      cell: 'C5',
      quote: '1,234.50',
      page: null,
    });
  });
});
