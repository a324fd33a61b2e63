import { describe, expect, it } from 'vitest';
import {
  countFields,
  FIELD_ATTRIBUTES,
  isStructure,
  parseLengthAttribute,
  STRUCTURE_LIMITS,
  validateStructure,
} from './structure.ts';

const fieldsOf = (value: unknown, root?: string): string[] =>
  validateStructure(value, root).map((e) => e.field);

/** A chain of `levels` nested objects under the root, ending in a string leaf. */
function nested(levels: number): Record<string, unknown> {
  let def: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) def = { type: 'object', properties: { x: def } };
  return def;
}

const invoice = {
  type: 'array',
  required: true,
  describe: 'invoices in the document',
  items: {
    type: 'object',
    required: true,
    properties: {
      number: { type: 'string', required: true, describe: 'invoice number' },
      currency: { type: 'string', minLength: '3', maxLength: 3 },
      total: { type: 'number' },
      count: { type: 'integer' },
      paid: { type: 'boolean' },
      status: { type: 'string', enum: ['open', 'paid'] },
      customer: {
        type: 'object',
        description: 'who pays',
        properties: { name: { type: 'string' }, 'vat-id_2': { type: 'string' } },
      },
      lines: {
        type: 'array',
        items: { type: 'object', properties: { sku: { type: 'string' } } },
      },
      tags: { type: 'array', items: { type: 'string' } },
      matrix: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
    },
  },
};

describe('validateStructure: valid structures', () => {
  it('accepts a rich array-rooted structure using every attribute', () => {
    expect(validateStructure(invoice)).toEqual([]);
    expect(isStructure(invoice)).toBe(true);
  });

  it('accepts an object root with required, describe and description on the root', () => {
    const s = {
      type: 'object',
      required: true,
      describe: 'a person',
      description: 'a person',
      properties: { name: { type: 'string' } },
    };
    expect(validateStructure(s)).toEqual([]);
  });

  it('accepts a root array whose items are arrays of arrays', () => {
    const s = { type: 'array', items: { type: 'array', items: { type: 'string' } } };
    expect(validateStructure(s)).toEqual([]);
  });

  it('accepts numeric text and numbers, including 0, for minLength and maxLength', () => {
    const s = {
      type: 'object',
      properties: {
        a: { type: 'string', minLength: '0', maxLength: '10' },
        b: { type: 'string', minLength: 0, maxLength: 0 },
        c: { type: 'string', minLength: 2, maxLength: '2' },
      },
    };
    expect(validateStructure(s)).toEqual([]);
  });

  it('accepts field names of 1 and 64 characters made of letters, digits, _ and -', () => {
    const s = {
      type: 'object',
      properties: { a: { type: 'string' }, ['A9_-'.repeat(16)]: { type: 'string' } },
    };
    expect(validateStructure(s)).toEqual([]);
  });

  it('accepts letters and digits of any script, with their combining marks', () => {
    const names = ['取引先', 'naïve', 'Straße', 'номер_счёта', 'राशि', '金額２', 'x'.repeat(64)];
    const s = {
      type: 'object',
      properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
    };
    expect(validateStructure(s)).toEqual([]);
  });
});

describe('validateStructure: root', () => {
  it.each([null, 'object', 42, true, [], [{ type: 'object' }]])(
    'rejects a root that is not an object: %j',
    (value) => {
      expect(validateStructure(value)).toEqual([
        { field: 'structure', message: expect.stringContaining('JSON object') as unknown },
      ]);
    },
  );

  it('requires a root type', () => {
    const errors = validateStructure({ properties: { a: { type: 'string' } } });
    expect(errors).toEqual([{ field: 'structure.type', message: expect.any(String) as unknown }]);
    expect(errors[0]?.message).toMatch(/"object", "array"/);
  });

  it.each(['string', 'number', 'integer', 'boolean', 'date', 5, null])(
    'rejects root type %j',
    (type) => {
      expect(fieldsOf({ type, properties: { a: { type: 'string' } } })).toEqual(['structure.type']);
    },
  );

  it('requires properties on an object root', () => {
    expect(fieldsOf({ type: 'object' })).toEqual(['structure.properties']);
  });

  it('requires properties to be a non-empty object', () => {
    expect(fieldsOf({ type: 'object', properties: {} })).toEqual(['structure.properties']);
    expect(fieldsOf({ type: 'object', properties: [] })).toEqual(['structure.properties']);
    expect(fieldsOf({ type: 'object', properties: 'name' })).toEqual(['structure.properties']);
  });

  it('requires items on an array root', () => {
    expect(fieldsOf({ type: 'array' })).toEqual(['structure.items']);
  });

  it('requires the items of a root array to be an object or array', () => {
    expect(fieldsOf({ type: 'array', items: { type: 'string' } })).toEqual([
      'structure.items.type',
    ]);
    expect(fieldsOf({ type: 'array', items: {} })).toEqual(['structure.items.type']);
    expect(fieldsOf({ type: 'array', items: 'object' })).toEqual(['structure.items']);
  });

  it('requires items.properties when the root items are objects', () => {
    expect(fieldsOf({ type: 'array', items: { type: 'object' } })).toEqual([
      'structure.items.properties',
    ]);
  });

  it('requires items.items when the root items are arrays', () => {
    expect(fieldsOf({ type: 'array', items: { type: 'array' } })).toEqual([
      'structure.items.items',
    ]);
  });

  it('rejects string-only attributes on the root', () => {
    const s = {
      type: 'object',
      minLength: 1,
      maxLength: 2,
      enum: ['a'],
      properties: { a: { type: 'string' } },
    };
    expect(fieldsOf(s)).toEqual(['structure.minLength', 'structure.maxLength', 'structure.enum']);
  });

  it('rejects items on an object root and properties on an array root', () => {
    expect(
      fieldsOf({
        type: 'object',
        properties: { a: { type: 'string' } },
        items: { type: 'string' },
      }),
    ).toEqual(['structure.items']);
    expect(
      fieldsOf({
        type: 'array',
        items: { type: 'object', properties: { a: { type: 'string' } } },
        properties: { a: { type: 'string' } },
      }),
    ).toEqual(['structure.properties']);
  });

  it('uses the given root name in every path', () => {
    expect(fieldsOf({ type: 'object', properties: { a: { type: 'text' } } }, 'body')).toEqual([
      'body.properties.a.type',
    ]);
    expect(validateStructure(null, 'body')[0]?.field).toBe('body');
  });
});

describe('validateStructure: field definitions', () => {
  const withField = (def: unknown): unknown => ({ type: 'object', properties: { f: def } });

  it('requires type on every field, with the allowed types in the message', () => {
    const errors = validateStructure(withField({ describe: 'x' }));
    expect(errors.map((e) => e.field)).toEqual(['structure.properties.f.type']);
    expect(errors[0]?.message).toContain(
      '"string", "number", "integer", "boolean", "object", "array"',
    );
  });

  it.each(['text', 'date', 'null', 'String', 3, null, ['string']])(
    'rejects field type %j',
    (type) => {
      expect(fieldsOf(withField({ type }))).toEqual(['structure.properties.f.type']);
    },
  );

  it.each([
    ['describe', 5],
    ['description', { text: 'x' }],
    ['required', 'true'],
    ['required', 1],
  ])('rejects %s = %j', (attribute, value) => {
    expect(fieldsOf(withField({ type: 'string', [attribute]: value }))).toEqual([
      `structure.properties.f.${attribute}`,
    ]);
  });

  it('rejects a field definition that is not an object, at its own path', () => {
    const s = {
      type: 'object',
      properties: { a: 'string', b: null, c: [], d: { type: 'array', items: 'string' } },
    };
    expect(fieldsOf(s)).toEqual([
      'structure.properties.a',
      'structure.properties.b',
      'structure.properties.c',
      'structure.properties.d.items',
    ]);
  });

  it('rejects an unknown attribute, naming the allowed ones and suggesting the closest', () => {
    const errors = validateStructure(withField({ type: 'string', requried: true }));
    expect(errors.map((e) => e.field)).toEqual(['structure.properties.f.requried']);
    const message = errors[0]?.message ?? '';
    for (const attribute of FIELD_ATTRIBUTES) expect(message).toContain(attribute);
    expect(message).toContain('Did you mean "required"?');
  });

  it('rejects unknown attributes on the root and inside items', () => {
    const s = {
      type: 'array',
      format: 'x',
      items: { type: 'object', properties: { a: { type: 'string' } }, minlength: 2 },
    };
    const errors = validateStructure(s);
    expect(errors.map((e) => e.field)).toEqual(['structure.format', 'structure.items.minlength']);
    expect(errors[1]?.message).toContain('Did you mean "minLength"?');
  });

  it('allows required inside items', () => {
    const s = withField({
      type: 'array',
      required: true,
      items: { type: 'string', required: true },
    });
    expect(validateStructure(s)).toEqual([]);
  });

  describe('minLength and maxLength', () => {
    it.each(['number', 'integer', 'boolean', 'object', 'array'])(
      'are rejected on %s fields',
      (type) => {
        const def: Record<string, unknown> = { type, minLength: 1, maxLength: 2 };
        if (type === 'object') def.properties = { a: { type: 'string' } };
        if (type === 'array') def.items = { type: 'string' };
        expect(fieldsOf(withField(def))).toEqual([
          'structure.properties.f.minLength',
          'structure.properties.f.maxLength',
        ]);
      },
    );

    it.each([
      -1,
      1.5,
      '1.5',
      '-1',
      '',
      ' 3',
      'three',
      '3a',
      true,
      null,
      [3],
      { n: 3 },
      1e300,
      '99999999999999999999',
    ])('reject the value %j', (value) => {
      expect(fieldsOf(withField({ type: 'string', minLength: value }))).toEqual([
        'structure.properties.f.minLength',
      ]);
      expect(fieldsOf(withField({ type: 'string', maxLength: value }))).toEqual([
        'structure.properties.f.maxLength',
      ]);
    });

    it('reject minLength greater than maxLength, whether given as numbers or text', () => {
      const errors = validateStructure(withField({ type: 'string', minLength: '5', maxLength: 3 }));
      expect(errors).toEqual([
        {
          field: 'structure.properties.f.minLength',
          message: 'minLength (5) must not be greater than maxLength (3).',
        },
      ]);
      expect(fieldsOf(withField({ type: 'string', minLength: 10, maxLength: '9' }))).toEqual([
        'structure.properties.f.minLength',
      ]);
    });

    it('compare numerically, not as text', () => {
      expect(
        validateStructure(withField({ type: 'string', minLength: '9', maxLength: '10' })),
      ).toEqual([]);
    });
  });

  describe('enum', () => {
    it('is accepted on string fields', () => {
      expect(validateStructure(withField({ type: 'string', enum: ['a', 'b', ''] }))).toEqual([]);
    });

    it.each(['number', 'integer', 'boolean'])('is rejected on %s fields', (type) => {
      expect(fieldsOf(withField({ type, enum: ['1'] }))).toEqual(['structure.properties.f.enum']);
    });

    it.each([[[]], ['a'], [{ a: 1 }], [null]])('must be a non-empty array: %j', (value) => {
      expect(fieldsOf(withField({ type: 'string', enum: value }))).toEqual([
        'structure.properties.f.enum',
      ]);
    });

    it('reports each non-string and each duplicate at its position', () => {
      const s = {
        type: 'object',
        properties: { tags: { type: 'string', enum: ['a', 'a', 3, 'b', 'b', null] } },
      };
      const errors = validateStructure(s);
      expect(errors.map((e) => e.field)).toEqual([
        'structure.properties.tags.enum[1]',
        'structure.properties.tags.enum[2]',
        'structure.properties.tags.enum[4]',
        'structure.properties.tags.enum[5]',
      ]);
      expect(errors[0]?.message).toContain('enum[0]');
    });
  });

  it('requires properties on nested objects and items on nested arrays', () => {
    const s = {
      type: 'object',
      properties: {
        o: { type: 'object' },
        e: { type: 'object', properties: {} },
        a: { type: 'array' },
      },
    };
    expect(fieldsOf(s)).toEqual([
      'structure.properties.o.properties',
      'structure.properties.e.properties',
      'structure.properties.a.items',
    ]);
  });

  it('allows any field definition as items of a nested array', () => {
    for (const items of [
      { type: 'string' },
      { type: 'number' },
      { type: 'integer' },
      { type: 'boolean' },
      { type: 'string', enum: ['x'], minLength: 1 },
    ]) {
      expect(validateStructure(withField({ type: 'array', items }))).toEqual([]);
    }
  });

  it('rejects properties on non-object fields and items on non-array fields', () => {
    const s = {
      type: 'object',
      properties: {
        s: { type: 'string', properties: { a: { type: 'string' } } },
        n: { type: 'number', items: { type: 'string' } },
      },
    };
    expect(fieldsOf(s)).toEqual([
      'structure.properties.s.properties',
      'structure.properties.n.items',
    ]);
  });

  it('reports the path of deep problems with dots and brackets', () => {
    const s = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          lines: { type: 'array' },
          total: { type: 'money' },
          meta: {
            type: 'object',
            properties: { codes: { type: 'array', items: { type: 'string', enum: ['x', 'x'] } } },
          },
        },
      },
    };
    expect(fieldsOf(s)).toEqual([
      'structure.items.properties.lines.items',
      'structure.items.properties.total.type',
      'structure.items.properties.meta.properties.codes.items.enum[1]',
    ]);
  });

  it('reports every problem, one entry each, in document order', () => {
    const s = {
      type: 'object',
      properties: {
        a: { type: 'string', minLength: 'x', enum: [] },
        'b c': { type: 'text' },
        d: { requried: true },
      },
    };
    expect(fieldsOf(s)).toEqual([
      'structure.properties.a.minLength',
      'structure.properties.a.enum',
      'structure.properties.b c',
      'structure.properties.b c.type',
      'structure.properties.d.requried',
      'structure.properties.d.type',
    ]);
  });
});

describe('validateStructure: field names', () => {
  it.each(['', 'first name', 'a.b', 'a[0]', 'x'.repeat(65), 'semi;colon', 'slash/', '取引先 名'])(
    'rejects %j',
    (name) => {
      const s = { type: 'object', properties: { [name]: { type: 'string' } } };
      const errors = validateStructure(s);
      expect(errors).toEqual([
        {
          field: `structure.properties.${name}`,
          message: expect.stringContaining('letters or digits (any script)') as unknown,
        },
      ]);
    },
  );
});

describe('validateStructure: reserved names', () => {
  it('rejects __proto__ as a field name', () => {
    const s = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}}}',
    ) as unknown;
    expect(validateStructure(s)).toEqual([
      { field: 'structure.properties.__proto__', message: 'Field name "__proto__" is reserved.' },
    ]);
  });

  it('reports __proto__ as an unknown attribute rather than following it', () => {
    const s = JSON.parse(
      '{"type":"object","__proto__":{"x":1},"properties":{"a":{"type":"string"}}}',
    ) as unknown;
    expect(fieldsOf(s)).toEqual(['structure.__proto__']);
  });
});

describe('validateStructure: limits', () => {
  it(`allows nesting ${STRUCTURE_LIMITS.maxDepth} levels deep and rejects one more`, () => {
    expect(validateStructure({ type: 'object', properties: { x: nested(9) } })).toEqual([]);
    const deep = { type: 'object', properties: { x: nested(10) } };
    const path = `structure${'.properties.x'.repeat(11)}`;
    expect(validateStructure(deep)).toEqual([
      { field: path, message: expect.stringContaining('too deep') as unknown },
    ]);
  });

  it('accepts a chain of 10 nested objects as the whole structure, rejects 11', () => {
    expect(validateStructure(nested(10))).toEqual([]);
    expect(fieldsOf(nested(11))).toEqual([`structure${'.properties.x'.repeat(11)}`]);
  });

  it('counts items as a nesting level', () => {
    let def: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10; i++) def = { type: 'array', items: def };
    expect(validateStructure(def)).toEqual([]);
    expect(fieldsOf({ type: 'array', items: def })).toEqual([`structure${'.items'.repeat(11)}`]);
  });

  it('reports very deep nesting once without exhausting the stack', () => {
    expect(validateStructure(nested(5000))).toHaveLength(1);
  });

  it(`allows ${STRUCTURE_LIMITS.maxFields} field definitions and rejects more`, () => {
    const many = (n: number): unknown => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string' }]),
      ),
    });
    expect(validateStructure(many(500))).toEqual([]);
    expect(validateStructure(many(501))).toEqual([
      { field: 'structure', message: expect.stringContaining('501 field definitions') as unknown },
    ]);
  });

  it('counts nested fields and items towards the field limit', () => {
    const props = Object.fromEntries(
      Array.from({ length: 250 }, (_, i) => [
        `f${i}`,
        { type: 'array', items: { type: 'string' } },
      ]),
    );
    expect(countFields({ type: 'object', properties: props })).toBe(500);
    const extra = { ...props, g: { type: 'string' } };
    expect(fieldsOf({ type: 'object', properties: extra })).toEqual(['structure']);
  });

  it('rejects a structure over 64 KiB of JSON, counting UTF-8 bytes', () => {
    const base = { type: 'object', properties: { a: { type: 'string', describe: '' } } };
    const overhead = Buffer.byteLength(JSON.stringify(base));
    const fits = {
      type: 'object',
      properties: { a: { type: 'string', describe: 'x'.repeat(65536 - overhead) } },
    };
    expect(validateStructure(fits)).toEqual([]);
    const over = {
      type: 'object',
      properties: { a: { type: 'string', describe: 'x'.repeat(65537 - overhead) } },
    };
    expect(validateStructure(over)).toEqual([
      { field: 'structure', message: expect.stringContaining('64 KiB') as unknown },
    ]);
    // 'é' is two bytes: 40,000 characters are 80,000 bytes.
    const wide = {
      type: 'object',
      properties: { a: { type: 'string', describe: 'é'.repeat(40000) } },
    };
    expect(fieldsOf(wide)).toEqual(['structure']);
  });
});

describe('parseLengthAttribute', () => {
  it('reads numbers and numeric text', () => {
    expect(parseLengthAttribute(3)).toBe(3);
    expect(parseLengthAttribute('3')).toBe(3);
    expect(parseLengthAttribute('0')).toBe(0);
    expect(parseLengthAttribute('3.5')).toBeUndefined();
    expect(parseLengthAttribute(-2)).toBeUndefined();
  });
});

describe('countFields', () => {
  it('counts every properties entry and every items below the root', () => {
    expect(countFields(invoice)).toBe(18);
    expect(countFields({ type: 'object', properties: { a: { type: 'string' } } })).toBe(1);
    expect(countFields('nonsense')).toBe(0);
  });
});
