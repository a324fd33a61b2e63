import type { Structure } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { fillAbsentFields } from './normalize.ts';

describe('fillAbsentFields', () => {
  it('answers null for optional fields an answer left out, at every depth', () => {
    const structure: Structure = {
      type: 'object',
      properties: {
        number: { type: 'string', required: true },
        note: { type: 'string' },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, qty: { type: 'number' } },
          },
        },
      },
    };
    expect(fillAbsentFields(structure, { number: 'A', lines: [{ sku: 'x' }] })).toEqual({
      number: 'A',
      note: null,
      lines: [{ sku: 'x', qty: null }],
    });
  });
});
