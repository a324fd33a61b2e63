import type { Structure } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { toJsonSchema, unwrapOutput } from './json-schema.ts';

const KEYWORDS_STRICT_MODE_REJECTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'default'];

/** Walks a schema and asserts the rules OpenAI strict mode enforces. */
function assertStrict(schema: unknown, path = '$'): void {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  for (const keyword of KEYWORDS_STRICT_MODE_REJECTS) {
    expect(node, `${path} has ${keyword}`).not.toHaveProperty(keyword);
  }
  const type = node.type;
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) {
    expect(node.additionalProperties, `${path} additionalProperties`).toBe(false);
    expect(node.required, `${path} required`).toEqual(Object.keys(node.properties as object));
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties') {
      for (const [name, child] of Object.entries(value as object))
        assertStrict(child, `${path}.${name}`);
    } else if (key === 'items') assertStrict(value, `${path}[]`);
    else if (key === 'anyOf')
      (value as unknown[]).forEach((b, i) => assertStrict(b, `${path}|${i}`));
  }
}

const invoice: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true, describe: 'Invoice number' },
    currency: { type: 'string', minLength: '3', maxLength: 3, description: 'ISO 4217 code' },
    kind: { type: 'string', enum: ['invoice', 'credit_note'] },
    status: { type: 'string', enum: ['paid', 'open'], required: true },
    count: { type: 'integer' },
    paid: { type: 'boolean', required: true },
    total: { type: 'number' },
    customer: {
      type: 'object',
      properties: { name: { type: 'string', required: true } },
    },
    lines: {
      type: 'array',
      required: true,
      items: {
        type: 'object',
        properties: { amount: { type: 'number', required: true }, note: { type: 'string' } },
      },
    },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

describe('toJsonSchema', () => {
  it('makes every field required and expresses optional fields as nullable', () => {
    const { schema, wrapped } = toJsonSchema(invoice);
    expect(wrapped).toBe(false);
    assertStrict(schema);
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(props.number).toEqual({ type: 'string', description: 'Invoice number' });
    expect(props.count).toEqual({ type: ['integer', 'null'] });
    expect(props.paid).toEqual({ type: 'boolean' });
    expect(props.total).toEqual({ type: ['number', 'null'] });
    expect(props.customer).toEqual({
      anyOf: [
        {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    });
    expect(props.tags).toEqual({
      anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }],
    });
  });

  it('keeps enums, adding null only when the field is optional', () => {
    const props = toJsonSchema(invoice).schema.properties as Record<string, unknown>;
    expect(props.kind).toEqual({
      type: ['string', 'null'],
      enum: ['invoice', 'credit_note', null],
    });
    expect(props.status).toEqual({ type: 'string', enum: ['paid', 'open'] });
  });

  it('moves length limits (number or numeric text) into the description', () => {
    const props = toJsonSchema(invoice).schema.properties as Record<string, unknown>;
    expect(props.currency).toEqual({
      type: ['string', 'null'],
      description: 'ISO 4217 code Length: exactly 3 characters.',
    });
  });

  it('makes array elements non-null whatever items.required says', () => {
    const props = toJsonSchema(invoice).schema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(props.lines).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: { amount: { type: 'number' }, note: { type: ['string', 'null'] } },
        required: ['amount', 'note'],
        additionalProperties: false,
      },
    });
  });

  it('wraps a root array in an object and unwraps the answer', () => {
    const structure: Structure = {
      type: 'array',
      items: { type: 'object', properties: { sku: { type: 'string', required: true } } },
    };
    const { schema, wrapped } = toJsonSchema(structure);
    expect(wrapped).toBe(true);
    assertStrict(schema);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { sku: { type: 'string' } },
            required: ['sku'],
            additionalProperties: false,
          },
        },
      },
      required: ['items'],
      additionalProperties: false,
    });
    expect(unwrapOutput({ items: [{ sku: 'A' }] }, true)).toEqual([{ sku: 'A' }]);
    expect(unwrapOutput({ sku: 'A' }, false)).toEqual({ sku: 'A' });
  });

  it('handles arrays of arrays and a deeply nested structure', () => {
    let field: Structure = { type: 'object', properties: { leaf: { type: 'string' } } };
    for (let depth = 0; depth < 9; depth += 1) {
      field = { type: 'object', properties: { child: { ...field, required: true } } };
    }
    assertStrict(toJsonSchema(field).schema);
    const matrix: Structure = {
      type: 'array',
      items: { type: 'array', items: { type: 'number' } },
    };
    expect(toJsonSchema(matrix).schema.properties).toEqual({
      items: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
    });
  });
});
