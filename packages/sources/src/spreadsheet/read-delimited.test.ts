import { describe, expect, it } from 'vitest';
import { failureOf } from '@xt/testkit';
import { readDelimited } from './read-delimited.ts';

const cells = (text: string, format: 'csv' | 'tsv' = 'csv', max = 1_000) =>
  readDelimited(Buffer.from(text), format, max).sheets[0]!.rows.map((r) => [
    r.row,
    ...r.cells.map((c) => `${c.col}:${c.text}`),
  ]);

describe('readDelimited', () => {
  it('reads a CSV file as one sheet, each record a row, fields as written', () => {
    const csv =
      '\uFEFFSKU,Description,Price\r\nA-1,"Widget, large","1,234.50"\r\n\r\nA-2,"Two\nlines",  7 \r\n';
    expect(cells(csv)).toEqual([
      [1, '1:SKU', '2:Description', '3:Price'],
      [2, '1:A-1', '2:Widget, large', '3:1,234.50'],
      // The empty line is row 3, as a spreadsheet program numbers it.
      [4, '1:A-2', '2:Two\nlines', '3:7'],
    ]);
    expect(readDelimited(Buffer.from(csv), 'csv', 100).sheets[0]).toMatchObject({
      name: 'Sheet1',
      headerRows: [1],
    });
  });

  it('reads semicolon-separated files as European spreadsheets write them', () => {
    expect(cells('SKU;Price;Qty\nA-1;1.234,50;3\nA-2;7,00;1\n')).toEqual([
      [1, '1:SKU', '2:Price', '3:Qty'],
      [2, '1:A-1', '2:1.234,50', '3:3'],
      [3, '1:A-2', '2:7,00', '3:1'],
    ]);
  });

  it('reads TSV by tabs, rows of unequal length included', () => {
    expect(cells('a\tb\tc\n1\t2\n', 'tsv')).toEqual([
      [1, '1:a', '2:b', '3:c'],
      [2, '1:1', '2:2'],
    ]);
  });

  it('reads a ragged CSV: short rows keep their cells, the widest row sets the columns', () => {
    const csv = 'Price list;2024\nSKU;Description;Price;Note\nA-1;Widget;2,00\nTotal;;5,50\n';
    const sheet = readDelimited(Buffer.from(csv), 'csv', 100).sheets[0]!;
    expect(cells(csv)).toEqual([
      [1, '1:Price list', '2:2024'],
      [2, '1:SKU', '2:Description', '3:Price', '4:Note'],
      [3, '1:A-1', '2:Widget', '3:2,00'],
      [4, '1:Total', '3:5,50'],
    ]);
    expect(Math.max(...sheet.rows.flatMap((r) => r.cells.map((c) => c.col)))).toBe(4);
  });

  it('refuses a file with more cells than the bound, as too large', async () => {
    const err = await failureOf(
      Promise.resolve().then(() => cells('a,b,c\n'.repeat(10), 'csv', 20)),
    );
    expect(err).toMatchObject({ code: 'SOURCE_TOO_LARGE' });
    expect(err.message).toMatch(/more than 20 cells/);
  });

  it('refuses a file that is not UTF-8 as unreadable', async () => {
    const err = await failureOf(
      Promise.resolve().then(() => readDelimited(Buffer.from([0x41, 0xff, 0x2c, 0x42]), 'csv', 10)),
    );
    expect(err).toMatchObject({ code: 'SOURCE_UNREADABLE' });
  });
});
