import { describe, expect, it } from 'vitest';
import { validateStructure } from '@xt/contract';
import { draftStructure, fieldName, fieldsFound } from './draft.ts';

describe('draftStructure', () => {
  it('makes whatever the model proposed into a structure POST /schemas takes', () => {
    const structure = draftStructure([
      [
        { name: 'Invoice number', type: 'string', description: 'The number' },
        { name: '取引先', type: 'string' },
        { name: 'due', type: 'date' },
        { name: 'status', type: 'string', options: ['paid', 'open', 'paid'] },
        {
          name: 'lines',
          type: 'list',
          columns: [
            { name: 'unit price', type: 'number' },
            { name: '', type: 'string' },
          ],
        },
        { name: 'tags', type: 'list' },
        { name: '???', type: 'string' },
        { name: 'weird', type: 'currency' as never },
      ],
      [
        { name: 'Invoice number', type: 'integer' },
        { name: 'paid', type: 'boolean' },
      ],
    ]);
    expect(structure).toEqual({
      type: 'object',
      properties: {
        Invoice_number: { type: 'string', description: 'The number' },
        取引先: { type: 'string' },
        due: { type: 'string', description: 'A date (YYYY-MM-DD)' },
        status: { type: 'string', enum: ['paid', 'open'] },
        lines: {
          type: 'array',
          items: { type: 'object', properties: { unit_price: { type: 'number' } } },
        },
        tags: { type: 'array', items: { type: 'string' } },
        weird: { type: 'string' },
        paid: { type: 'boolean' },
      },
    });
    expect(validateStructure(structure)).toEqual([]);
  });

  it('has no draft when nothing was proposed', () => {
    expect(draftStructure([[], [{ name: '!!' }]])).toBeUndefined();
  });

  it('keeps valid names as they are', () => {
    expect(fieldName('_id')).toBe('_id');
    expect(fieldName('naïve')).toBe('naïve');
    expect(fieldName('a.b c')).toBe('a_b_c');
  });
});

describe('fieldsFound', () => {
  it('counts null, blank text and empty lists as not found', () => {
    const structure = draftStructure([
      ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, type: 'string' as const })),
    ])!;
    expect(fieldsFound(structure, { a: 'x', b: null, c: ' ', d: [], e: 0 })).toEqual({
      found: ['a', 'e'],
      missing: ['b', 'c', 'd'],
      share: 0.4,
    });
  });
});
