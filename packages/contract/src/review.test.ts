import { describe, expect, it } from 'vitest';
import { validateReviewPolicy } from './review.ts';
import { fieldAtPointer, structurePathOf, valueProblem } from './structure-paths.ts';
import type { Structure } from './structure-types.ts';

const structure: Structure = {
  type: 'object',
  properties: {
    total: { type: 'number', required: true },
    'a/b': { type: 'string' },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { amount: { type: 'number' } } },
    },
  },
};

describe('review settings', () => {
  it('accepts paths the structure has, items written *', () => {
    expect(
      validateReviewPolicy(
        { minConfidence: 0.7, fields: ['/total', '/lines/*/amount', '/a~1b'], sample: 0.1 },
        structure,
      ),
    ).toEqual({
      policy: { minConfidence: 0.7, fields: ['/total', '/lines/*/amount', '/a~1b'], sample: 0.1 },
      errors: [],
    });
  });

  it('names each field the structure does not have, and each bad setting', () => {
    expect(
      validateReviewPolicy(
        { minConfidence: 0.7, fields: ['/total', '/lines/0/amount', 'x'] },
        structure,
      ).errors.map((e) => e.field),
    ).toEqual(['review.fields[1]', 'review.fields[2]']);
    expect(
      validateReviewPolicy({ minConfidence: 2, sample: -1 }, structure).errors.map((e) => e.field),
    ).toEqual(['review.minConfidence', 'review.sample']);
    expect(validateReviewPolicy({}, structure).errors.map((e) => e.field)).toEqual([
      'review.minConfidence',
    ]);
  });
});

describe('output pointers', () => {
  it('resolve through array indexes to the governing field', () => {
    expect(fieldAtPointer(structure, '/lines/3/amount')).toEqual({ type: 'number' });
    expect(fieldAtPointer(structure, '/lines/x/amount')).toBeUndefined();
    expect(fieldAtPointer(structure, '/nope')).toBeUndefined();
    expect(structurePathOf('/lines/3/amount')).toBe('/lines/*/amount');
  });

  it('check a value against its field', () => {
    expect(valueProblem({ type: 'number' }, '12')).toBe('must be a number');
    expect(valueProblem({ type: 'number', required: true }, null)).toMatch(/required/);
    expect(valueProblem({ type: 'number' }, null)).toBeNull();
    expect(valueProblem(structure.properties!.lines!, [{ amount: 'x' }])).toBe(
      'item 0 "amount" must be a number',
    );
    expect(valueProblem(structure.properties!.lines!, [{ amount: 1 }])).toBeNull();
  });
});
