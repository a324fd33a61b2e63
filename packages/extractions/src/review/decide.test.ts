import { describe, expect, it } from 'vitest';
import type { Citation, Structure } from '@xt/contract';
import { reviewReasons, sampleDraw } from './decide.ts';

const structure: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true },
    total: { type: 'number' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string', required: true }, amount: { type: 'number' } },
      },
    },
  },
};

const cite = (confidence: number | null): Citation => ({
  grounded: true,
  quote: 'x',
  page: null,
  boxes: [],
  start: null,
  end: null,
  confidence,
});

const id = '2f8f8e4e-9a8a-4b6e-8f5e-3b0f1f6f0c11';

describe('reviewReasons', () => {
  it('queues values below minConfidence and required values not found, in arrays too', () => {
    const reasons = reviewReasons({
      id,
      policy: { minConfidence: 0.8 },
      structure,
      output: {
        number: '',
        total: 3,
        lines: [
          { sku: 'A', amount: 1 },
          { sku: null, amount: 2 },
        ],
      },
      citations: {
        '/total': cite(0.5),
        '/lines/0/amount': cite(0.95),
        '/lines/1/amount': cite(null),
      },
    });
    expect(reasons.map((r) => [r.code, r.path])).toEqual([
      ['LOW_CONFIDENCE', '/total'],
      ['REQUIRED_NOT_FOUND', '/number'],
      ['REQUIRED_NOT_FOUND', '/lines/1/sku'],
    ]);
  });

  it('looks only at the listed fields and what is under them', () => {
    const reasons = reviewReasons({
      id,
      policy: { minConfidence: 0.8, fields: ['/lines'] },
      structure,
      output: { number: '', total: 3, lines: [{ sku: '', amount: 1 }] },
      citations: { '/total': cite(0.1), '/lines/0/amount': cite(0.2) },
    });
    expect(reasons.map((r) => [r.code, r.path])).toEqual([
      ['LOW_CONFIDENCE', '/lines/0/amount'],
      ['REQUIRED_NOT_FOUND', '/lines/0/sku'],
    ]);
  });

  it('queues nothing for a confident, complete answer', () => {
    expect(
      reviewReasons({
        id,
        policy: { minConfidence: 0.5 },
        structure,
        output: { number: 'N-1', total: 3, lines: [] },
        citations: { '/number': cite(0.9), '/total': cite(0.5) },
      }),
    ).toEqual([]);
  });

  it('draws the sample from the id alone: the same every time, about the share asked for', () => {
    expect(sampleDraw(id)).toBe(sampleDraw(id));
    const ids = Array.from(
      { length: 2000 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const drawn = ids.filter(
      (each) =>
        reviewReasons({
          id: each,
          policy: { minConfidence: 0, sample: 0.25 },
          structure,
          output: { number: 'N', total: 1, lines: [] },
          citations: null,
        }).length > 0,
    ).length;
    expect(drawn / ids.length).toBeGreaterThan(0.2);
    expect(drawn / ids.length).toBeLessThan(0.3);
    const none = { minConfidence: 0, sample: 0 };
    const all = { minConfidence: 0, sample: 1 };
    const output = { number: 'N', total: 1, lines: [] };
    expect(reviewReasons({ id, policy: none, structure, output, citations: null })).toEqual([]);
    expect(reviewReasons({ id, policy: all, structure, output, citations: null })).toEqual([
      { code: 'SAMPLED', path: null, message: 'drawn in the review sample (1)' },
    ]);
  });
});
