import { CitationsSchema, type GroundingSource } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { buildCitations } from './index.ts';

/** An email as the worker keeps it: its body (quotes only), a PDF with pages, a text file. */
const email: GroundingSource = {
  kind: 'parts',
  parts: [
    {
      part: 'body',
      source: {
        kind: 'plain',
        text: 'From: Accounts <ap@acme.test>\nSubject: Invoice 2026-117\n\nPlease find our invoice attached.',
      },
    },
    {
      part: 'invoice.pdf',
      source: {
        kind: 'pages',
        pages: [
          { page: 1, lines: [{ text: 'Invoice 2026-117', box: [0.1, 0.1, 0.5, 0.12] }] },
          {
            page: 2,
            lines: [
              { text: 'Total due', box: [0.1, 0.5, 0.3, 0.52] },
              { text: '1,234.50 EUR', box: [0.6, 0.5, 0.9, 0.52] },
            ],
          },
        ],
      },
    },
    { part: 'notes.txt', source: { kind: 'text', content: 'PO number: PO-4471\nDeliver Tuesday' } },
  ],
};

describe('citations in a source of parts', () => {
  const { citations, ungrounded } = buildCitations({
    output: { sender: 'ap@acme.test', total: 1234.5, po: 'PO-4471', missing: 'Globex' },
    source: email,
  });

  it('names the part, with page and boxes inside a part that has pages', () => {
    expect(CitationsSchema.parse(citations)).toEqual(citations);
    expect(citations['/total']).toMatchObject({
      grounded: true,
      quote: '1,234.50',
      page: 2,
      start: null,
      end: null,
      part: 'invoice.pdf',
    });
    expect(citations['/total']!.boxes).toHaveLength(1);
    const [x0, y0, x1, y1] = citations['/total']!.boxes[0]!;
    expect(x0).toBeCloseTo(0.6);
    expect(x1).toBeLessThan(0.9);
    expect([y0, y1]).toEqual([0.5, 0.52]);
  });

  it('gives offsets into a text part, and a quote alone in the body', () => {
    const content = (email.parts[2]!.source as { content: string }).content;
    expect(citations['/po']).toMatchObject({ part: 'notes.txt', quote: 'PO-4471', page: null });
    expect(content.slice(citations['/po']!.start!, citations['/po']!.end!)).toBe('PO-4471');
    expect(citations['/sender']).toMatchObject({
      part: 'body',
      quote: 'ap@acme.test',
      start: null,
      end: null,
      boxes: [],
    });
  });

  it('has no part for a value found nowhere', () => {
    expect(citations['/missing']).not.toHaveProperty('part');
    expect(ungrounded).toEqual(['/missing']);
  });

  it('never runs a quote from one part into the next', () => {
    const { citations: across } = buildCitations({
      output: { subject: 'invoice attached. Invoice 2026-117' },
      source: email,
    });
    expect(across['/subject']).toMatchObject({ part: 'body', quote: 'invoice attached.' });
  });

  it('places the items of a list part by part, in order', () => {
    const two: GroundingSource = {
      kind: 'parts',
      parts: [
        { part: 'a.txt', source: { kind: 'text', content: 'Widget 2.00\nBolt 3.00' } },
        { part: 'b.txt', source: { kind: 'text', content: 'Widget 2.00\nNut 5.00' } },
      ],
    };
    const { citations: rows } = buildCitations({
      output: {
        lines: [
          { item: 'Widget', price: 2 },
          { item: 'Bolt', price: 3 },
          { item: 'Widget', price: 2 },
          { item: 'Nut', price: 5 },
        ],
      },
      source: two,
    });
    expect(rows['/lines/0/item']!.part).toBe('a.txt');
    expect(rows['/lines/2/item']!.part).toBe('b.txt');
    expect(rows['/lines/2/price']).toMatchObject({ part: 'b.txt', start: 7, end: 11 });
  });
});
