import { describe, expect, it } from 'vitest';
import { csvDelimiter, isEightBitMessage, textFormatOf } from './text.ts';

const whole = { complete: true };

describe('textFormatOf', () => {
  it('tells HTML by its opening tag', () => {
    expect(textFormatOf('<!DOCTYPE html><p>hi</p>', whole)).toBe('html');
    expect(textFormatOf('  <div class="x">hi</div>', whole)).toBe('html');
  });

  it('tells a message by its header block, mbox separator or not', () => {
    const message = 'From: a@example.com\r\nTo: b@example.com\r\nSubject: Invoice\r\n\r\nBody';
    expect(textFormatOf(message, whole)).toBe('eml');
    expect(textFormatOf(`From a@example.com Sat Jan  3 01:05:34 1996\n${message}`, whole)).toBe(
      'eml',
    );
    const folded =
      'Received: from mx by example.com;\n\tSat, 3 Jan 2026 01:05:34 +0000\nMessage-ID: <1@x>\nDate: Sat, 3 Jan 2026\n\nhi';
    expect(textFormatOf(folded, whole)).toBe('eml');
  });

  it('tells a message whose body is 8-bit text in another charset by its ASCII headers', () => {
    const head = 'From: a@example.com\r\nTo: b@example.com\r\nSubject: Rechnung\r\n\r\n';
    expect(
      isEightBitMessage(Buffer.concat([Buffer.from(head), Buffer.from([0x47, 0xfc, 0xdf])])),
    ).toBe(true);
    expect(isEightBitMessage(Buffer.from([0x47, 0xfc, 0xdf, 0x0a]))).toBe(false);
    expect(isEightBitMessage(Buffer.concat([Buffer.from(head), Buffer.from([0, 1])]))).toBe(false);
  });

  it('does not take prose with a colon, or one header, for a message', () => {
    expect(textFormatOf('Note: the total is 12.50\n\nThanks', whole)).toBe('txt');
    expect(textFormatOf('Subject: lunch\n\nsee you', whole)).toBe('txt');
  });

  it('tells JSON, parsing a whole sample', () => {
    expect(textFormatOf('{"total": 12.5}', whole)).toBe('json');
    expect(textFormatOf('[1, 2', whole)).toBe('txt');
    expect(textFormatOf('[{"a": 1}, {"a"', { complete: false })).toBe('json');
  });

  it('tells CSV and TSV by a delimiter every row has alike, quotes respected', () => {
    expect(textFormatOf('name,amount\n"Ties, cable",2.00\nScrews,3.50\n', whole)).toBe('csv');
    expect(textFormatOf('name;amount\nTies;2,00\nScrews;3,50\n', whole)).toBe('csv');
    expect(textFormatOf('name\tamount\nTies\t2.00\nScrews\t3.50\n', whole)).toBe('tsv');
    // A field of two lines, quoted, as spreadsheet programs write a cell with a line break.
    expect(
      textFormatOf('sku,name,price\nA-1,"Gadget\nwith two lines",2.00\nA-2,Gizmo,3\n', whole),
    ).toBe('csv');
    expect(textFormatOf('Dear Sir, thank you.\nYours, me', whole)).toBe('txt');
    // A sample cut mid-row: the last line is not judged.
    expect(textFormatOf('a,b\n1,2\n3,4\n5', { complete: false })).toBe('csv');
  });

  it('takes Markdown from the name only, since its text is plain text too', () => {
    expect(textFormatOf('# Invoice\n\nTotal', { complete: true, name: 'notes.md' })).toBe('md');
    expect(textFormatOf('# Invoice\n\nTotal', whole)).toBe('txt');
  });

  it('tells Markdown by a YAML front matter, not by a thematic break', () => {
    const page = '---\ntitle: Invoice 42\ntags: a, b, c\n---\n# Invoice\n\nTotal: 12.50\n';
    expect(textFormatOf(page, whole)).toBe('md');
    expect(textFormatOf(page.replace(/\n/g, '\r\n'), whole)).toBe('md');
    expect(textFormatOf('---\n# comment\nkey: 1\n...\nbody', whole)).toBe('md');
    // Between two rules, prose with no `key:` opening it is not front matter; `words: words`
    // is (YAML reads it as a key too).
    expect(textFormatOf('---\nJust a rule and prose.\n---\nMore.', whole)).toBe('txt');
    expect(textFormatOf('---\nNote that: this is prose\n---\n', whole)).toBe('md');
    expect(textFormatOf('---\ntitle: never closed\n', whole)).toBe('txt');
  });

  it('reads a text called .html as HTML when its opening tag is not one sniffing knows', () => {
    const pre = `<pre>${' '.repeat(50)}</pre>`;
    expect(textFormatOf(pre, { complete: true, name: 'spaces.html' })).toBe('html');
    expect(textFormatOf(pre, whole)).toBe('txt');
    // The name never outranks a shape the content has.
    expect(textFormatOf('a,b\n1,2\n3,4', { complete: true, name: 'rows.htm' })).toBe('csv');
  });

  it('reads a file called .csv or .tsv as a table whatever its row lengths', () => {
    // A title line, a header, rows, a total row with fewer fields: no shape of a table.
    const ragged =
      'Price list 2024\nSKU,Description,Price\nA-1,Widget,2.00\nA-2,Gadget\nTotal,,5.50\n';
    expect(textFormatOf(ragged, whole)).toBe('txt');
    expect(textFormatOf(ragged, { complete: true, name: 'prices.CSV' })).toBe('csv');
    expect(textFormatOf('a\tb\tc\n1\t2\n3\n', { complete: true, name: 'rows.tab' })).toBe('tsv');
    // A shape the content has still outranks the name.
    expect(textFormatOf('{"total": 1}', { complete: true, name: 'data.csv' })).toBe('json');
  });

  it('reads rows of unequal length as a table when a table is asked for, without a name', () => {
    const ragged = 'Price list 2024\nSKU;Description;Price\nA-1;Widget;2,00\nTotal;;5,50\n';
    expect(textFormatOf(ragged, { complete: true, table: true })).toBe('csv');
    expect(textFormatOf('a\tb\tc\n1\t2\n3\n', { complete: true, table: true })).toBe('tsv');
    expect(
      textFormatOf('Dear customer\nthank you\nregards, me\n', { complete: true, table: true }),
    ).toBe('txt');
    expect(textFormatOf(ragged, whole)).toBe('txt');
  });
});

describe('csvDelimiter', () => {
  it('tells a semicolon from a comma when rows differ in length', () => {
    expect(csvDelimiter('SKU;Price;Qty\nA-1;1,50;3\nA-2;7,00\nTotal;8,50\n', true)).toBe(';');
    expect(csvDelimiter('SKU,Price,Qty\nA-1,1.50,3\nA-2,7.00\nTotal;ok,8.50\n', true)).toBe(',');
  });
});
