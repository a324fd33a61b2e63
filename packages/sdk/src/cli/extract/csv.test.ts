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
