import type { GroundingSource } from '@xt/contract';
import { CitationsSchema } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import {
  buildCitations,
  UNGROUNDED_FACTOR,
  GROUNDED_ONLY_CONFIDENCE,
  UNGROUNDED_ONLY_CONFIDENCE,
} from './index.ts';

const source: GroundingSource = {
  kind: 'text',
  content:
    'Invoice INV-7 from Acme GmbH\nLine: Widget 2 x 10.00\nTotal due: 1,234.50 EUR\nPaid: yes',
};
const output = {
  number: 'INV-7',
  seller: 'Acme GmbH',
  total: 1234.5,
  buyer: 'Globex Inc',
  paid: true,
  note: null,
  memo: '',
};

describe('buildCitations', () => {
  it('cites every leaf with a value and lists the ungrounded ones', () => {
    const { citations, ungrounded } = buildCitations({ output, source });
    expect(CitationsSchema.parse(citations)).toEqual(citations);
    expect(Object.keys(citations)).toEqual(['/number', '/seller', '/total', '/buyer', '/paid']);
    expect(citations['/total']).toEqual({
      grounded: true,
      quote: '1,234.50',
      page: null,
      boxes: [],
      start: source.content.indexOf('1,234.50'),
      end: source.content.indexOf('1,234.50') + 8,
      confidence: null,
    });
    expect(citations['/buyer']).toEqual({
      grounded: false,
      quote: null,
      page: null,
      boxes: [],
      start: null,
      end: null,
      confidence: null,
    });
    expect(ungrounded).toEqual(['/buyer', '/paid']);
  });

  it('grounds through quotes keyed by pointer', () => {
    const quotes = new Map([
      ['/paid', 'Paid: yes'],
      ['/buyer', 'Billed to Globex Inc'],
    ]);
    const { citations, ungrounded } = buildCitations({ output, source, quotes });
    expect(citations['/paid']).toMatchObject({ grounded: true, quote: 'Paid: yes' });
    expect(citations['/buyer']!.grounded).toBe(false);
    expect(ungrounded).toEqual(['/buyer']);
  });

  it('takes confidence from probabilities, lowered when ungrounded, null when absent', () => {
    const probabilities = new Map([
      ['/total', 0.9],
      ['/buyer', 0.8],
      ['/seller', 1.0000001],
    ]);
    const { citations } = buildCitations({ output, source, probabilities });
    expect(citations['/total']!.confidence).toBeCloseTo(0.9);
    expect(citations['/buyer']!.confidence).toBeCloseTo(0.8 * UNGROUNDED_FACTOR);
    expect(citations['/seller']!.confidence).toBe(1);
    expect(citations['/number']!.confidence).toBeNull();
    expect(
      buildCitations({ output, source, probabilities: null }).citations['/total']!.confidence,
    ).toBeNull();
  });

  it('takes confidence from grounding alone for a model that gives no probabilities', () => {
    const { citations } = buildCitations({ output, source, groundingOnly: true });
    expect(citations['/total']!.confidence).toBe(GROUNDED_ONLY_CONFIDENCE);
    expect(citations['/buyer']!.confidence).toBe(UNGROUNDED_ONLY_CONFIDENCE);
  });
});
