import { describe, expect, it } from 'vitest';
import type { Structure } from '@xt/contract';
import { applyCorrections } from './corrections.ts';

const structure: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true },
    'a/b': { type: 'number' },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { amount: { type: 'number' } } },
    },
  },
};
const output = { number: '', 'a/b': 1, lines: [{ amount: 1 }] };

describe('applyCorrections', () => {
  it('sets values at their pointers on a copy, appending one past a list’s end', () => {
    const { result, errors } = applyCorrections(structure, output, {
      '/number': 'INV-1',
      '/a~1b': 2,
      '/lines/0/amount': 3,
      '/lines/1': { amount: 4 },
    });
    expect(errors).toEqual([]);
    expect(result).toEqual({ number: 'INV-1', 'a/b': 2, lines: [{ amount: 3 }, { amount: 4 }] });
    expect(output).toEqual({ number: '', 'a/b': 1, lines: [{ amount: 1 }] });
  });

  it('names every pointer it refuses, and why', () => {
    const { errors } = applyCorrections(structure, output, {
      '/nope': 1,
      '/number': null,
      '/lines/0/amount': '3',
      '/lines/5/amount': 1,
      '/lines/1': { amount: 1, extra: true },
    });
    expect(errors.map((e) => [e.field, e.message])).toEqual([
      ['corrections["/nope"]', '/nope is not a value the schema has'],
      ['corrections["/number"]', 'must not be null: the field is required (string at /number)'],
      ['corrections["/lines/0/amount"]', 'must be a number (number at /lines/0/amount)'],
      ['corrections["/lines/5/amount"]', 'the result holds nothing at /lines/5/amount'],
      ['corrections["/lines/1"]', 'has "extra", which the schema does not (object at /lines/1)'],
    ]);
  });
});
