import type { Structure } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { mergeOutputs } from './merge.ts';

const structure: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true },
    total: { type: 'number' },
    customer: {
      type: 'object',
      properties: { name: { type: 'string' }, vat: { type: 'string' } },
    },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } },
    },
  },
};

describe('mergeOutputs', () => {
  it('concatenates arrays in order, takes the first non-null scalar, merges objects field by field', () => {
    const merged = mergeOutputs(structure, [
      {
        number: 'INV-1',
        total: null,
        customer: { name: 'Ada', vat: null },
        lines: [{ sku: 'A', qty: 1 }],
      },
      { number: null, total: 30, customer: null, lines: [{ sku: 'B', qty: 2 }] },
      { number: 'INV-9', total: 31, customer: { name: 'Other', vat: 'DE1' }, lines: [] },
    ]);
    expect(merged).toEqual({
      number: 'INV-1',
      total: 30,
      customer: { name: 'Ada', vat: 'DE1' },
      lines: [
        { sku: 'A', qty: 1 },
        { sku: 'B', qty: 2 },
      ],
    });
  });

  it('removes exact duplicate elements, whatever their key order, and keeps near-duplicates', () => {
    const merged = mergeOutputs(structure, [
      { lines: [{ sku: 'A', qty: 1 }] },
      {
        lines: [
          { qty: 1, sku: 'A' },
          { sku: 'A', qty: 2 },
        ],
      },
    ]) as { lines: unknown[] };
    expect(merged.lines).toEqual([
      { sku: 'A', qty: 1 },
      { sku: 'A', qty: 2 },
    ]);
  });

  it('leaves null where no chunk had a value', () => {
    expect(mergeOutputs(structure, [{ number: null, lines: null }, {}])).toEqual({
      number: null,
      total: null,
      customer: null,
      lines: null,
    });
  });

  it('concatenates root arrays', () => {
    const list: Structure = { type: 'array', items: { type: 'string' } };
    expect(mergeOutputs(list, [['a', 'b'], ['b', 'c'], []])).toEqual(['a', 'b', 'c']);
  });

  it('joins once a row cut at a chunk boundary, given half by each chunk', () => {
    const merged = mergeOutputs(structure, [
      {
        lines: [
          { sku: 'A', qty: 1 },
          { sku: 'B', qty: null },
        ],
      },
      {
        lines: [
          { sku: null, qty: 2 },
          { sku: 'C', qty: 3 },
        ],
      },
    ]) as { lines: unknown[] };
    expect(merged.lines).toEqual([
      { sku: 'A', qty: 1 },
      { sku: 'B', qty: 2 },
      { sku: 'C', qty: 3 },
    ]);
  });

  it('never joins complete rows, rows that disagree, or rows of one chunk', () => {
    const lines = (outputs: unknown[][]) =>
      (
        mergeOutputs(
          structure,
          outputs.map((l) => ({ lines: l })),
        ) as { lines: unknown[] }
      ).lines;
    // complete rows that share a value
    expect(lines([[{ sku: 'A', qty: 1 }], [{ sku: 'A', qty: 2 }]])).toHaveLength(2);
    // halves that disagree on a value both have
    expect(lines([[{ sku: 'A', qty: null }], [{ sku: 'B', qty: null }]])).toHaveLength(2);
    // the later half fills nothing the earlier left empty
    expect(
      lines([
        [{ sku: 'A', qty: null }],
        [
          { sku: 'A', qty: null },
          { sku: 'D', qty: 4 },
        ],
      ]),
    ).toEqual([
      { sku: 'A', qty: null },
      { sku: 'D', qty: 4 },
    ]);
    // two halves within one chunk are the model's own two rows
    expect(
      lines([
        [
          { sku: 'A', qty: null },
          { sku: null, qty: 2 },
        ],
      ]),
    ).toHaveLength(2);
  });
});
