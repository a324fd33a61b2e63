import type { Structure } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { validateOutput } from './validate-output.ts';

const structure: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true },
    currency: { type: 'string', minLength: '3', maxLength: '3' },
    kind: { type: 'string', enum: ['invoice', 'credit_note'] },
    count: { type: 'integer' },
    total: { type: 'number' },
    paid: { type: 'boolean' },
    customer: { type: 'object', properties: { name: { type: 'string', required: true } } },
    lines: {
      type: 'array',
      required: true,
      items: { type: 'object', properties: { amount: { type: 'number', required: true } } },
    },
  },
};

const valid = {
  number: 'INV-1',
  currency: 'EUR',
  kind: 'invoice',
  count: 2,
  total: 10.5,
  paid: false,
  customer: { name: 'Ada' },
  lines: [{ amount: 10.5 }],
};

describe('validateOutput', () => {
  it('accepts a conforming value, with optional fields null or absent and empty arrays', () => {
    expect(validateOutput(structure, valid)).toEqual([]);
    expect(
      validateOutput(structure, {
        number: 'INV-1',
        currency: null,
        kind: null,
        count: null,
        customer: null,
        lines: [],
      }),
    ).toEqual([]);
  });

  it('reports required values that are missing or null', () => {
    expect(validateOutput(structure, { ...valid, number: null, lines: undefined })).toEqual([
      { field: '$.number', message: 'is required and must not be null' },
      { field: '$.lines', message: 'is required and must not be null' },
    ]);
    expect(validateOutput(structure, { ...valid, customer: {} })).toEqual([
      { field: '$.customer.name', message: 'is required and must not be null' },
    ]);
    expect(validateOutput(structure, null)).toEqual([
      { field: '$', message: 'is required and must not be null' },
    ]);
  });

  it('reports wrong types, with integer meaning a whole number', () => {
    const errors = validateOutput(structure, {
      ...valid,
      number: 7,
      count: 2.5,
      total: '10',
      paid: 'yes',
      customer: [],
      lines: [{ amount: 1 }, null, 'x'],
    });
    expect(errors).toEqual([
      { field: '$.number', message: 'must be a string, got a number' },
      { field: '$.count', message: 'must be an integer, got 2.5' },
      { field: '$.total', message: 'must be a number, got a string' },
      { field: '$.paid', message: 'must be a boolean, got a string' },
      { field: '$.customer', message: 'must be an object, got an array' },
      { field: '$.lines[1]', message: 'is required and must not be null' },
      { field: '$.lines[2]', message: 'must be an object, got a string' },
    ]);
  });

  it('checks lengths in characters (numeric-text limits) and enums', () => {
    expect(validateOutput(structure, { ...valid, currency: 'EURO', kind: 'receipt' })).toEqual([
      { field: '$.currency', message: 'must be at most 3 characters, got 4' },
      { field: '$.kind', message: 'must be one of "invoice", "credit_note"' },
    ]);
    expect(validateOutput(structure, { ...valid, currency: '€' })).toEqual([
      { field: '$.currency', message: 'must be at least 3 characters, got 1' },
    ]);
    // three code points, six UTF-16 units
    expect(validateOutput(structure, { ...valid, currency: '😀😀😀' })).toEqual([]);
  });

  it('rejects keys the structure does not define', () => {
    expect(
      validateOutput(structure, { ...valid, extra: 1, customer: { name: 'A', age: 3 } }),
    ).toEqual([
      { field: '$.customer.age', message: 'is not defined in the structure' },
      { field: '$.extra', message: 'is not defined in the structure' },
    ]);
  });

  it('validates a root array and nested arrays', () => {
    const list: Structure = {
      type: 'array',
      items: { type: 'array', items: { type: 'integer' } },
    };
    expect(validateOutput(list, [[1, 2], []])).toEqual([]);
    expect(validateOutput(list, [[1, 'a']])).toEqual([
      { field: '$[0][1]', message: 'must be an integer, got a string' },
    ]);
    expect(validateOutput(list, {})).toEqual([
      { field: '$', message: 'must be an array, got an object' },
    ]);
  });
});
