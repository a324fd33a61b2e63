import { describe, expect, it } from 'vitest';
import { validateStructure } from '@xt/contract';
import { convertJsonSchema } from './json-schema.ts';

/** What Pydantic v2's Invoice.model_json_schema() gives for a typical model (trimmed titles kept). */
const pydantic = {
  $defs: {
    Address: {
      properties: {
        street: { title: 'Street', type: 'string' },
        city: { title: 'City', type: 'string' },
      },
      required: ['street', 'city'],
      title: 'Address',
      type: 'object',
    },
    LineItem: {
      properties: {
        description: { title: 'Description', type: 'string' },
        quantity: { minimum: 0, title: 'Quantity', type: 'integer' },
        unit_price: { anyOf: [{ type: 'number' }, { type: 'null' }], default: null },
      },
      required: ['description', 'quantity'],
      title: 'LineItem',
      type: 'object',
    },
    Status: { enum: ['paid', 'open'], title: 'Status', type: 'string' },
    Node: {
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/$defs/Node' } },
      },
      type: 'object',
    },
  },
  properties: {
    invoice_number: {
      description: 'The number',
      title: 'Invoice Number',
      type: 'string',
      pattern: '^INV',
    },
    issued: { format: 'date', title: 'Issued', type: 'string' },
    vendor: { $ref: '#/$defs/Address' },
    billing: { anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }], default: null },
    status: { $ref: '#/$defs/Status' },
    kind: { const: 'invoice', type: 'string' },
    lines: { items: { $ref: '#/$defs/LineItem' }, title: 'Lines', type: 'array' },
    tags: { additionalProperties: { type: 'string' }, type: 'object' },
    取引先: { type: ['string', 'null'] },
    tree: { $ref: '#/$defs/Node' },
  },
  required: ['invoice_number', 'vendor', 'status', 'lines', '取引先'],
  title: 'Invoice',
  type: 'object',
};

describe('convertJsonSchema', () => {
  it('turns a Pydantic schema with $defs, anyOf-null, enum and const into a valid structure', () => {
    const result = convertJsonSchema(pydantic);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const address = {
      type: 'object',
      properties: {
        street: { type: 'string', required: true },
        city: { type: 'string', required: true },
      },
    };
    expect(result.structure).toEqual({
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'The number', required: true },
        issued: { type: 'string', description: '(format: date)' },
        vendor: { ...address, required: true },
        billing: address,
        status: { type: 'string', enum: ['paid', 'open'], required: true },
        kind: { type: 'string', enum: ['invoice'] },
        lines: {
          type: 'array',
          required: true,
          items: {
            type: 'object',
            properties: {
              description: { type: 'string', required: true },
              quantity: { type: 'integer', required: true },
              unit_price: { type: 'number' },
            },
          },
        },
        // a nullable field is never required, whatever the list says
        取引先: { type: 'string' },
        tree: {
          type: 'object',
          properties: { name: { type: 'string' } },
        },
      },
    });
    expect(validateStructure(result.structure)).toEqual([]);
    expect(result.dropped.map((d) => d.path).sort()).toEqual(
      [
        '/properties/invoice_number/pattern',
        '/properties/lines/items/properties/quantity/minimum',
        '/properties/tags',
        '/properties/tags/additionalProperties',
        '/properties/tree/properties/children/items',
        '/properties/tree/properties/children',
      ].sort(),
    );
    expect(result.dropped).toContainEqual({
      path: '/properties/tree/properties/children/items',
      reason: expect.stringContaining('recursive') as unknown,
    });
  });

  it('reads zod-to-json-schema output: definitions, nullable type arrays, string constants in anyOf', () => {
    const result = convertJsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $ref: '#/definitions/Order',
      definitions: {
        Order: {
          type: 'object',
          properties: {
            currency: { anyOf: [{ const: 'EUR' }, { const: 'USD' }] },
            total: { type: ['number', 'null'] },
            notes: { type: 'array', items: { type: 'string' }, minItems: 1 },
          },
          required: ['currency'],
          additionalProperties: false,
        },
      },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.structure).toEqual({
      type: 'object',
      properties: {
        currency: { type: 'string', enum: ['EUR', 'USD'], required: true },
        total: { type: 'number' },
        notes: { type: 'array', items: { type: 'string' } },
      },
    });
    expect(result.dropped).toEqual([
      { path: '/properties/notes/minItems', reason: 'minItems has no equivalent in a structure' },
    ]);
  });

  it('keeps the first of several object alternatives and says the others were left out', () => {
    const result = convertJsonSchema({
      type: 'object',
      properties: {
        party: {
          oneOf: [
            { type: 'object', properties: { name: { type: 'string' } } },
            { type: 'object', properties: { company: { type: 'string' } } },
          ],
        },
        'first name': { type: 'string' },
      },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(Object.keys(result.structure.properties ?? {})).toEqual(['party', 'first_name']);
    expect(result.dropped).toEqual([
      { path: '/properties/party/oneOf/1', reason: 'only the first oneOf alternative is kept' },
      {
        path: '/properties/first name',
        reason: 'renamed "first_name": "first name" is not a valid field name',
      },
    ]);
  });

  it('stops following a chain of thousands of references instead of exhausting the stack', () => {
    const $defs: Record<string, object> = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`D${i}`, { $ref: `#/$defs/D${i + 1}` }]),
    );
    $defs.D5000 = { type: 'string' };
    const result = convertJsonSchema({
      $defs,
      type: 'object',
      properties: { a: { $ref: '#/$defs/D0' }, b: { type: 'string' } },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.structure.properties).toEqual({ b: { type: 'string' } });
    expect(result.dropped).toEqual([
      { path: '/properties/a', reason: 'more than 64 references followed in a row' },
    ]);
  });

  it.each([
    ['a string', 'hello', 'jsonSchema'],
    [
      'an unknown type',
      { type: 'object', properties: { a: { type: 'text' } } },
      'jsonSchema.properties.a.type',
    ],
    [
      'a $ref to nothing',
      { type: 'object', properties: { a: { $ref: '#/$defs/Nope' } } },
      'jsonSchema.properties.a.$ref',
    ],
    [
      'properties that are not an object',
      { type: 'object', properties: [1] },
      'jsonSchema.properties',
    ],
    ['a root that is a scalar', { type: 'string' }, 'jsonSchema'],
    ['a root array of text', { type: 'array', items: { type: 'string' } }, 'jsonSchema'],
    [
      'a free-form root map',
      { type: 'object', additionalProperties: { type: 'string' } },
      'jsonSchema',
    ],
  ])('refuses %s naming the field', (_what, jsonSchema, field) => {
    const result = convertJsonSchema(jsonSchema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.field)).toContain(field);
  });
});
