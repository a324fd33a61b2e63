import type { GroundingSource } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { allowedEdits, sellers } from './approximate.ts';
import { cumulativeWidths } from './glyph-widths.ts';
import { indexSource, locateValue } from './index.ts';

const text = (content: string): GroundingSource => ({ kind: 'text', content });
const box = (y: number): [number, number, number, number] => [0.1, y, 0.7, y + 0.02];

describe('sellers', () => {
  it('finds the nearest substring and its distance', () => {
    const hay = 'xx tota1 yy total';
    expect(sellers('total', hay, 0, 11, 1)).toEqual({ start: 3, end: 8, distance: 1 });
    expect(sellers('total', hay, 0, 11, 0)).toBeNull();
    expect(sellers('total', hay, 0, hay.length, 0)).toEqual({ start: 12, end: 17, distance: 0 });
  });

  it('counts insertions and deletions as one edit each', () => {
    const hay = 'a b invoicce c invice d';
    expect(sellers('invoice', hay, 0, 12, 1)).toMatchObject({ distance: 1 });
    expect(sellers('invoice', hay, 13, hay.length, 1)).toMatchObject({ distance: 1 });
    expect(sellers('invoice', 'a b invxxxe c', 0, 13, 2)).toBeNull();
  });

  it('allows 15% of a quote’s characters, none below 8', () => {
    expect([
      allowedEdits(7),
      allowedEdits(8),
      allowedEdits(14),
      allowedEdits(100),
      allowedEdits(400),
    ]).toEqual([0, 1, 2, 15, 32]);
  });
});

describe('locateValue: OCR noise and the model’s quote', () => {
  const scanned: GroundingSource = {
    kind: 'pages',
    pages: [
      {
        page: 1,
        ocr: true,
        lines: [
          { text: 'lnvoice N0. 4471', box: box(0.1) },
          { text: 'Widget 2 x 1O.00', box: box(0.2) },
          { text: 'Tota1 1,234.5O', box: box(0.3) },
          { text: 'Payment rece1ved with thanks', box: box(0.4) },
        ],
      },
    ],
  };

  it('grounds a garbled figure through the quote, found within the allowed edits', () => {
    expect(locateValue(1234.5, scanned)).toBeNull();
    const located = locateValue(1234.5, scanned, 'Total 1,234.50');
    expect(located).toMatchObject({ how: 'quote', quote: '1,234.5O', page: 1 });
    // The figure's own place in the line, not the whole line.
    const [x0, y0, x1, y1] = located!.boxes[0]!;
    expect(located!.boxes).toHaveLength(1);
    const widths = cumulativeWidths('Tota1 1,234.5O');
    expect(x0).toBeCloseTo(0.1 + (0.6 * widths[6]!) / widths[14]!);
    expect(x1).toBeCloseTo(0.7);
    expect([y0, y1]).toEqual([0.3, 0.32]);
  });

  it('grounds a boolean and a paraphrase through a garbled quote', () => {
    expect(locateValue(true, scanned, 'Payment received')).toMatchObject({
      how: 'quote',
      quote: 'Payment rece1ved',
    });
    expect(locateValue('paid', scanned, 'Payment received with thanks')?.how).toBe('quote');
  });

  it('grounds words OCR garbled through the quote, within the same allowance', () => {
    const source = text('Seller: Acrne Corporation, Berlin');
    expect(locateValue('Acme Corporation', source)).toBeNull();
    expect(locateValue('Acme Corporation', source, 'Seller: Acme Corporation')).toMatchObject({
      how: 'quote',
      quote: 'Acrne Corporation',
    });
    expect(locateValue('Globex Corporation', source, 'Seller: Globex Corporation')).toBeNull();
  });

  it('does not ground an invented figure inside a real-looking quote', () => {
    expect(locateValue(4471, scanned, 'Invoice No. 4471')).toMatchObject({
      how: 'exact',
      quote: '4471',
    });
    expect(locateValue('4478', scanned, 'Invoice No. 4478')).toBeNull();
    expect(locateValue(9234.5, scanned, 'Total 9,234.50')).toBeNull();
    expect(locateValue('INV-8', text('Invoice INV-7 issued'), 'Invoice INV-8')).toBeNull();
    expect(locateValue('INV-8', text('Invoice INV-7 issued'), 'Invoice INV-7')).toBeNull();
  });

  it('does not accept a quote with more edits than allowed', () => {
    expect(locateValue(true, scanned, 'Payment refused, no thanks')).toBeNull();
    expect(locateValue(true, text('Paid: no'), 'Paid: yes')).toBeNull();
  });

  it('finds a garbled quote in a long source through the index', () => {
    const lines = Array.from(
      { length: 20_000 },
      (_, i) => `Item ${i} costs ${(i * 1.5).toFixed(2)} EUR, total to date ${i * 3}`,
    );
    lines[15_123] = 'Grand tota1 of a11 items: 98,765.4S EUR';
    const index = indexSource(text(lines.join('\n')));
    const located = locateValue(98765.45, index, 'Grand total of all items: 98,765.45 EUR');
    expect(located?.quote).toBe('98,765.4S');
    expect(located?.start).toBe(index.flat.indexOf('98,765.4S'));
  });

  it('cites a figure grounded through a long quote where it stands in it', () => {
    const before = 'Lorem ipsum dolor sit amet. '.repeat(15);
    const after = ' Consectetur adipiscing elit.'.repeat(15);
    const content = `${before}Amount due 7,5OO.00${after}`;
    const located = locateValue(7500, text(content), `${before}Amount due 7,500.00${after}`);
    expect(located).toMatchObject({
      how: 'quote',
      quote: '7,5OO.00',
      start: content.indexOf('7,5OO.00'),
    });
  });

  it('cuts a quote over 500 characters', () => {
    const content = `Terms. ${'The buyer accepts the goods as delivered. '.repeat(20)}End.`;
    const quote = 'The buyer accepts the goods as delivered. '.repeat(20).trim();
    const located = locateValue(true, text(content), quote);
    expect(located).toMatchObject({ how: 'quote', start: 7, end: 507 });
    expect(located!.quote).toBe(content.slice(7, 507));
  });
});
