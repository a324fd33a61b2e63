import type { Structure } from '@xt/contract';
import { describe, expect, it } from 'vitest';
import { toCitedJsonSchema } from '../cited-schema.ts';
import { toJsonSchema, type JsonSchema } from '../json-schema.ts';
import { LEAST_CAPABILITIES, OPENAI_CAPABILITIES, type Capabilities } from './capabilities.ts';
import { adaptSchema, MAX_REF_DEPTH } from './schema-dialect.ts';

const invoice: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true, describe: 'Invoice number' },
    status: { type: 'string', enum: ['paid', 'open'] },
    customer: { type: 'object', properties: { name: { type: 'string' } } },
    lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
  },
};

const withDefs: JsonSchema = {
  type: 'object',
  properties: {
    billing: { $ref: '#/$defs/Address', description: 'Where the bill goes.' },
    code: { type: 'string', pattern: '^[A-Z]{3}$', format: 'uuid', minLength: 3 },
    kind: { const: 'invoice' },
  },
  required: ['billing', 'code', 'kind'],
  additionalProperties: false,
  $defs: {
    Address: {
      type: 'object',
      description: 'A postal address.',
      properties: { city: { type: ['string', 'null'] } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};

const caps = (keywords: Partial<Capabilities['schemaKeywords']>): Capabilities => ({
  ...OPENAI_CAPABILITIES,
  schemaKeywords: { ...OPENAI_CAPABILITIES.schemaKeywords, ...keywords },
});

describe('adaptSchema', () => {
  it("gives OpenAI's dialect its schema back unchanged, key for key", () => {
    for (const schema of [
      toJsonSchema(invoice).schema,
      toCitedJsonSchema(invoice),
      toJsonSchema({ type: 'array', items: { type: 'string' } }).schema,
      withDefsWithoutConst(),
    ]) {
      const adapted = adaptSchema(schema, OPENAI_CAPABILITIES);
      expect(adapted).toEqual(schema);
      expect(JSON.stringify(adapted)).toBe(JSON.stringify(schema));
    }
  });

  it('inlines $ref and drops the definitions where refs are not honoured', () => {
    const adapted = adaptSchema(withDefs, caps({ refs: false }));
    expect(adapted).not.toHaveProperty('$defs');
    expect(adapted.properties).toMatchObject({
      billing: {
        type: 'object',
        description: 'A postal address. Where the bill goes.',
        properties: { city: { type: ['string', 'null'] } },
      },
    });
    expect(JSON.stringify(adapted)).not.toContain('$ref');
  });

  it('inlines `definitions` and escaped pointers too', () => {
    const adapted = adaptSchema(
      {
        type: 'array',
        items: { $ref: '#/definitions/a~1b' },
        definitions: { 'a/b': { type: 'integer' } },
      },
      caps({ refs: false }),
    );
    expect(adapted).toEqual({ type: 'array', items: { type: 'integer' } });
  });

  it('cuts a recursive reference past a depth with a description', () => {
    const tree: JsonSchema = {
      $ref: '#/$defs/Node',
      $defs: {
        Node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    };
    const adapted = adaptSchema(tree, caps({ refs: false }));
    let node: unknown = adapted;
    for (let level = 0; level < MAX_REF_DEPTH; level += 1) {
      expect(node).toMatchObject({ type: 'object' });
      node = (node as { properties: { children: { items: unknown } } }).properties.children.items;
    }
    expect(node).toEqual({ description: expect.stringContaining('recursion cut') });
    expect(JSON.stringify(adapted)).not.toContain('$ref');
  });

  it('cuts a reference to the root itself', () => {
    const adapted = adaptSchema(
      { type: 'object', properties: { next: { $ref: '#' } } },
      caps({ refs: false }),
    );
    expect(JSON.stringify(adapted)).not.toContain('$ref');
    expect(JSON.stringify(adapted)).toContain('recursion cut');
  });

  it('describes a reference it cannot resolve instead of sending it', () => {
    const adapted = adaptSchema(
      { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } },
      caps({ refs: false }),
    );
    expect(adapted.properties).toEqual({
      a: { description: 'A value as described by https://example.com/a.json.' },
    });
  });

  it('collapses nullable unions where anyOf is not honoured', () => {
    const schema = toJsonSchema(invoice).schema;
    const adapted = adaptSchema(schema, caps({ anyOf: false }));
    const properties = adapted.properties as Record<string, JsonSchema>;
    expect(properties.customer).toMatchObject({
      type: 'object',
      description: 'May be null.',
      properties: { name: { type: 'string', description: 'May be null.' } },
    });
    expect(properties.status).toEqual({
      type: 'string',
      enum: ['paid', 'open'],
      description: 'May be null.',
    });
    expect(properties.number).toEqual({ type: 'string', description: 'Invoice number' });
    expect(JSON.stringify(adapted)).not.toContain('anyOf');
    expect(JSON.stringify(adapted)).not.toContain('"null"');
  });

  it('keeps a union of two real shapes', () => {
    const union = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    expect(adaptSchema(union, caps({ anyOf: false }))).toEqual(union);
  });

  it('writes const as a one-value enum', () => {
    expect(adaptSchema({ const: 'invoice' }, OPENAI_CAPABILITIES)).toEqual({ enum: ['invoice'] });
  });

  it('moves pattern and enum into the description where they are not honoured', () => {
    const adapted = adaptSchema(
      {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'The code.', pattern: '^[A-Z]{3}$' },
          kind: { const: 'invoice' },
          status: { type: 'string', enum: ['paid', 'open'] },
        },
      },
      caps({ pattern: false, enum: false, constraints: true }),
    );
    expect(adapted.properties).toEqual({
      code: { type: 'string', description: 'The code. Matches the pattern ^[A-Z]{3}$.' },
      kind: { type: 'string', description: 'One of: "invoice".' },
      status: { type: 'string', description: 'One of: "paid", "open".' },
    });
  });

  it('moves the keywords grammar engines reject into the description', () => {
    const adapted = adaptSchema(
      {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', format: 'date', minLength: 10, maxLength: 10 },
      },
      caps({ constraints: false }),
    );
    expect(adapted).toEqual({
      type: 'array',
      description: 'At least 1 items. No item repeated.',
      items: {
        type: 'string',
        description: 'In the date format. At least 10 characters. At most 10 characters.',
      },
    });
  });

  it('takes the least capabilities to a schema with none of the rewritten keywords', () => {
    const adapted = JSON.stringify(adaptSchema(withDefs, LEAST_CAPABILITIES));
    for (const keyword of [
      '$ref',
      '$defs',
      'anyOf',
      'pattern',
      'enum',
      'const',
      'format',
      'minLength',
    ])
      expect(adapted).not.toContain(`"${keyword}"`);
    expect(adapted).toContain('May be null.');
    expect(adapted).toContain('Matches the pattern');
  });

  it('does not mistake a property named like a keyword for the keyword', () => {
    const schema = {
      type: 'object',
      properties: { format: { type: 'string' }, pattern: { type: 'string' } },
    };
    expect(adaptSchema(schema, LEAST_CAPABILITIES)).toEqual(schema);
  });
});

function withDefsWithoutConst(): JsonSchema {
  const { kind: _kind, ...properties } = withDefs.properties as Record<string, unknown>;
  return { ...withDefs, properties, required: ['billing', 'code'] };
}
