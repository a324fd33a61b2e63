import type { GroundingSource } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { cumulativeWidths } from './glyph-widths.ts';
import { indexSource, locateValue } from './index.ts';

/** Where the first `chars` characters of `line` end, as a share of its width. */
const along = (line: string, chars: number) =>
  cumulativeWidths(line)[chars]! / cumulativeWidths(line)[line.length]!;

const text = (content: string): GroundingSource => ({ kind: 'text', content });

/** The located quote must be the source's own text at the offsets given. */
function expectAt(content: string, value: string | number | boolean, quote?: string) {
  const located = locateValue(value, text(content), quote);
  expect(located).not.toBeNull();
  expect(content.slice(located!.start!, located!.end!)).toBe(located!.quote);
  return located!;
}

describe('locateValue: exact and normalised text', () => {
  it('finds a value verbatim and gives offsets into the original content', () => {
    const content = 'Invoice  INV-2024-001\nBilled to: Acme GmbH';
    const located = expectAt(content, 'Acme GmbH');
    const start = content.indexOf('Acme');
    expect(located).toMatchObject({ how: 'exact', start, end: start + 9, page: null, boxes: [] });
  });

  it('ignores case and runs of whitespace, quoting the source as written', () => {
    const content = 'Billed to:   ACME\t\tgmbh,  Berlin';
    const located = expectAt(content, 'Acme GmbH');
    expect(located).toMatchObject({ how: 'normalised', quote: 'ACME\t\tgmbh' });
  });

  it('joins a word hyphenated across a line end', () => {
    const content = 'Shipping is inter-\nnational and costs extra.';
    expect(expectAt(content, 'international').quote).toBe('inter-\nnational');
    expect(expectAt(content, 'International and costs').quote).toBe('inter-\nnational and costs');
  });

  it('does not find a word inside a longer word, nor a digit inside a number', () => {
    expect(locateValue('art', text('the start of it'))).toBeNull();
    expect(locateValue(5, text('15 items for 250'))).toBeNull();
  });

  it('finds words in scripts written without spaces', () => {
    expect(expectAt('住所：東京都千代田区', '東京都').quote).toBe('東京都');
    expect(expectAt('住所：東京都千代田区', '千代田').quote).toBe('千代田');
    expect(locateValue('大阪', text('住所：東京都千代田区'))).toBeNull();
  });

  it('does not ground a value that is not in the source', () => {
    expect(locateValue('Globex Corporation', text('Billed to: Acme GmbH, total 12.50'))).toBeNull();
    expect(locateValue(99.99, text('Billed to: Acme GmbH, total 12.50'))).toBeNull();
  });

  it('ignores punctuation the model added or dropped at a value’s ends', () => {
    expect(expectAt('Sold by Acme GmbH, Berlin', 'Acme GmbH.').quote).toBe('Acme GmbH');
    expect(expectAt('Note: Handle with care!', '"Handle with care."').quote).toBe(
      'Handle with care',
    );
    expect(locateValue('Acme, GmbH', text('Sold by Acme GmbH'))).toBeNull();
  });

  it('folds diacritics and typographic dashes', () => {
    expect(expectAt('Lieferadresse: HAUPTSTRASSE 5', 'Hauptstraße 5').quote).toBe('HAUPTSTRASSE 5');
    expect(expectAt('Bjørn Ødegård, Łódź', 'Bjorn Odegard, Lodz').how).toBe('normalised');
    const located = expectAt('Kunde: Müller – Café Zürich', 'Muller - Cafe Zurich');
    expect(located.how).toBe('normalised');
  });
});

describe('locateValue: numbers', () => {
  const cases: [number | string, string, string][] = [
    [1234.5, 'Total: 1,234.50 EUR', '1,234.50'],
    [1234.5, 'Gesamt: 1.234,50 €', '1.234,50'],
    [1234.5, 'Total : 1 234,50 €', '1 234,50'],
    [1234.5, 'Total: 1\u202f234,50 €', '1\u202f234,50'],
    [1234.5, "Total: CHF 1'234.50", "1'234.50"],
    [1234.5, 'Total: EUR1234.50', '1234.50'],
    [1234567, 'Revenue 1,234,567 in 2024', '1,234,567'],
    [0.15, 'VAT rate 15% applied', '15'],
    [-42.1, 'Adjustment -42.10 applied', '-42.10'],
    [-42.1, 'Adjustment (42.10) applied', '42.10'],
    ['$1,234.50', 'Total due 1234.50 USD', '1234.50'],
    ['1.234,50 €', 'Total due 1,234.50', '1,234.50'],
    [1e21, 'Big: 1,000,000,000,000,000,000,000', '1,000,000,000,000,000,000,000'],
  ];
  it.each(cases)('%s is found in %j', (value, content, quote) => {
    const located = expectAt(content, value);
    expect(located.quote).toBe(quote);
    expect(located.how).toBe('normalised');
  });

  it('calls a number exact when written as JSON writes it', () => {
    expect(expectAt('Total: $1234.5', 1234.5)).toMatchObject({ how: 'exact', quote: '1234.5' });
    expect(expectAt('Total 1234.5 and 1,234.50', 1234.5)).toMatchObject({
      how: 'exact',
      quote: '1234.5',
    });
  });

  it('prefers the occurrence with the same sign, then falls back to the magnitude', () => {
    expect(expectAt('Discount 5.00, credit -5.00', -5).quote).toBe('-5.00');
    expect(expectAt('Discount 5.00', -5).quote).toBe('5.00');
  });

  it('does not read a number glued to a word (A4) nor the digits of a different value', () => {
    expect(locateValue(4, text('Paper size A4'))).toBeNull();
    expect(locateValue(1234, text('Total 1,234.50'))).toBeNull();
    expect(locateValue(234.5, text('Total 1,234.50'))).toBeNull();
    expect(expectAt('Net weight 10g per pack', 10).quote).toBe('10');
    expect(locateValue(10, text('Net weight 1O per pack'))).toBeNull();
  });

  it('finds a string that is a number where a number is written, or as written around it', () => {
    expect(locateValue('12', text('Total 1,234.12'))).toBeNull();
    expect(expectAt('Total 1,234.12 for 12 items', '12').start).toBe(19);
    expect(expectAt('Total $1,234.50 due', '$1,234.50')).toMatchObject({
      how: 'exact',
      quote: '$1,234.50',
    });
    expect(expectAt('Total 1,234.50 due', '$1,234.50')).toMatchObject({
      how: 'normalised',
      quote: '1,234.50',
    });
  });

  it('accepts both readings of an ambiguous grouping', () => {
    expect(expectAt('Weight 1,234 kg', 1234).quote).toBe('1,234');
    expect(expectAt('Weight 1,234 kg', 1.234).quote).toBe('1,234');
  });
});

describe('locateValue: never a number inside a longer token', () => {
  it.each([
    [2, 'Invoice date: 2026-02-08'],
    [8, 'Invoice date: 2026-02-08'],
    [2026, 'Invoice date: 2026-02-08'],
    [2, 'Due 08/02/2026'],
    [2, 'Due 08.02.2026'],
    [2048, 'Invoice INV-2048'],
    [117, 'Invoice 2026-117'],
    [117, 'Reference INV-2026-0117'],
    [123, 'Call 555-123-4567'],
    [30, 'Call +49 30 1234567'],
    [44, 'IBAN DE89 3704 0044 0532 0130 00'],
    [3704, 'IBAN DE89 3704 0044 0532 0130 00'],
    [1234567, 'Telephone 030 1234567'],
    [30, 'Opens at 10:30'],
    [168, 'Host 192.168.0.1'],
    [5, 'Item No.5'],
    [2025, 'Valid 2024–2025'],
  ])('does not read %s in %j', (value, content) => {
    expect(locateValue(value, text(content))).toBeNull();
    expect(locateValue(String(value), text(content))).toBeNull();
  });

  it('still reads a number standing on its own beside such tokens', () => {
    const content = 'Date 2026-02-08, qty 2, ref INV-2048, total: -5.00 (12.50) 15% EUR1,234.50';
    expect(expectAt(content, 2).start).toBe(content.indexOf(' 2,') + 1);
    expect(expectAt(content, -5).quote).toBe('-5.00');
    expect(expectAt(content, -12.5).quote).toBe('12.50');
    expect(expectAt(content, 0.15).quote).toBe('15');
    expect(expectAt(content, 1234.5).quote).toBe('1,234.50');
    expect(expectAt('Total:5.00 due', 5).quote).toBe('5.00');
    expect(expectAt('A 12-month plan', 12).quote).toBe('12');
    expect(expectAt('Total 1 000 000 EUR', 1_000_000).quote).toBe('1 000 000');
    expect(expectAt('Amounts 10 200', 200).quote).toBe('200');
  });

  it('finds a token that holds digits as written, not a part of it', () => {
    expect(expectAt('Invoice INV-7 from Acme', 'INV-7').quote).toBe('INV-7');
    expect(expectAt('Invoice 2026-117', '2026-117').quote).toBe('2026-117');
    expect(locateValue('02-08', text('Invoice date: 2026-02-08'))).toBeNull();
  });

  it('does not take the quote’s word for a number read inside a date', () => {
    // The quote is found, but the only `2` in it is the month of a date.
    expect(
      locateValue(2, text('Invoice date: 2026-02-08\nQty 3'), 'Invoice date: 2026-02-08'),
    ).toBeNull();
  });
});

describe('locateValue: repeated values and quotes', () => {
  const content = 'Subtotal 100.00\nShipping 100.00\nTotal 100.00';

  it('takes the first occurrence without a quote', () => {
    expect(expectAt(content, 100).start).toBe(content.indexOf('100.00'));
  });

  it('takes the occurrence nearest the model’s quote', () => {
    expect(expectAt(content, 100, 'Total 100.00').start).toBe(content.lastIndexOf('100.00'));
    expect(expectAt(content, 100, 'Shipping 100.00').start).toBe(content.indexOf('100.00', 16));
  });

  it('grounds a value through its quote only where the quote is found', () => {
    const located = expectAt(content, 'shipping fee', 'Shipping 100.00');
    expect(located).toMatchObject({ how: 'quote', quote: 'Shipping 100.00' });
    expect(locateValue('shipping fee', text(content), 'Handling 100.00')).toBeNull();
  });

  it('grounds booleans only through a quote that is found', () => {
    const source = text('Paid in full on 5 March 2024.');
    expect(locateValue(true, source)).toBeNull();
    expect(locateValue(true, source, 'Paid in full')).toMatchObject({
      how: 'quote',
      quote: 'Paid in full',
    });
    expect(locateValue(true, source, 'Payment outstanding')).toBeNull();
  });
});

describe('locateValue: locations', () => {
  const box = (
    x0: number,
    y0: number,
    x1: number,
    y1: number,
  ): [number, number, number, number] => [x0, y0, x1, y1];
  const pages: GroundingSource = {
    kind: 'pages',
    pages: [
      { page: 1, lines: [{ text: 'Invoice 17', box: box(0.1, 0.1, 0.5, 0.12) }] },
      {
        page: 2,
        lines: [
          { text: 'Goods shipped inter-', box: box(0.1, 0.2, 0.9, 0.22) },
          { text: 'nationally by sea', box: box(0.1, 0.23, 0.8, 0.25) },
          { text: 'Total 250.00', box: box(0.5, 0.8, 0.74, 0.82) },
        ],
      },
    ],
  };

  it('gives the page and a box narrowed to the characters of the value', () => {
    const located = locateValue(250, pages)!;
    expect(located).toMatchObject({ quote: '250.00', page: 2, start: null, end: null });
    expect(located.boxes).toHaveLength(1);
    const [x0, y0, x1, y1] = located.boxes[0]!;
    expect(x0).toBeCloseTo(0.5 + 0.24 * along('Total 250.00', 6));
    expect(x1).toBeCloseTo(0.74);
    expect([y0, y1]).toEqual([0.8, 0.82]);
  });

  it('gives one box per line a value spans, across two lines of the page', () => {
    const located = locateValue('internationally', pages)!;
    expect(located.quote).toBe('inter-\nnationally');
    expect(located.page).toBe(2);
    expect(located.boxes).toHaveLength(2);
    expect(located.boxes[0]![0]).toBeCloseTo(0.1 + 0.8 * along('Goods shipped inter-', 14));
    expect(located.boxes[0]![2]).toBeCloseTo(0.9);
    expect(located.boxes[1]![0]).toBeCloseTo(0.1);
    expect(located.boxes[1]![2]).toBeCloseTo(0.1 + 0.7 * along('nationally by sea', 10));
  });

  it('weights characters by their width: narrow letters and spaces before a figure move its box', () => {
    // In Helvetica (as the fixture PDFs are set) "Total due: " is narrower than its 11 of 21
    // characters suggest; a character count would put the box a digit too far right.
    const line = 'Total due: 924.60 EUR';
    const located = locateValue(924.6, {
      kind: 'pages',
      pages: [{ page: 1, lines: [{ text: line, box: [0.1, 0.5, 0.5, 0.52] }] }],
    })!;
    const [x0, , x1] = located.boxes[0]!;
    expect(x0).toBeCloseTo(0.1 + 0.4 * (4_725 / 10_172), 3);
    expect(x1).toBeCloseTo(0.1 + 0.4 * (7_783 / 10_172), 3);
    expect(x0).toBeLessThan(0.1 + (0.4 * 11) / 21);
  });

  it('quotes a webpage’s text with no page, box or offsets', () => {
    const located = locateValue('Jane Doe', { kind: 'plain', text: 'By JANE DOE, Reuters' });
    expect(located).toEqual({
      quote: 'JANE DOE',
      page: null,
      boxes: [],
      start: null,
      end: null,
      how: 'normalised',
    });
  });

  it('keeps quotes to 500 characters', () => {
    const long = 'word '.repeat(200).trim();
    const located = locateValue(long, text(`Intro. ${long}. End.`))!;
    expect(located.quote).toHaveLength(500);
    expect(located.end! - located.start!).toBe(500);
  });

  it('reuses one index for many values', () => {
    const index = indexSource(text('a 1 b 2 c 3'));
    expect([1, 2, 3].map((n) => locateValue(n, index)?.start)).toEqual([2, 6, 10]);
  });
});
