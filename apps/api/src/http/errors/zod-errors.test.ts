import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  formatIssuePath,
  readableErrorMap,
  requiredMessage,
  zodIssuesToFieldErrors,
} from './zod-errors.ts';

const body = z.object({
  schema_id: z.uuid(),
  type: z.enum(['text', 'image', 'pdf', 'webpage']),
  source: z.string().min(1).max(5),
  count: z.int().min(1).max(3),
  input: z.object({ lines: z.array(z.object({ total: z.number() })).min(1) }),
  flag: z.boolean(),
});

function issuesOf(schema: z.ZodType, value: unknown, withMap = false) {
  const result = withMap
    ? schema.safeParse(value, { error: readableErrorMap })
    : schema.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  return result.error.issues;
}

describe('formatIssuePath', () => {
  it('joins keys with dots and writes positions in brackets', () => {
    expect(formatIssuePath(['input', 'lines', 2, 'total'])).toBe('input.lines[2].total');
    expect(formatIssuePath([0, 'a'])).toBe('[0].a');
    expect(formatIssuePath([])).toBe('');
  });

  it('roots the path at the given request field', () => {
    expect(formatIssuePath(['items', 'properties'], 'structure')).toBe(
      'structure.items.properties',
    );
    expect(formatIssuePath([1], 'structure.enum')).toBe('structure.enum[1]');
    expect(formatIssuePath([], 'query')).toBe('query');
  });
});

describe('zodIssuesToFieldErrors', () => {
  it('names missing fields in plain words even without the error map', () => {
    const errors = zodIssuesToFieldErrors(issuesOf(body, {}));
    expect(errors).toContainEqual({ field: 'schema_id', message: 'schema_id is required' });
    expect(errors).toContainEqual({ field: 'input', message: 'input is required' });
    expect(errors.map((e) => e.field)).toEqual([
      'schema_id',
      'type',
      'source',
      'count',
      'input',
      'flag',
    ]);
  });

  it('keeps one entry per field: the first message', () => {
    const schema = z.object({
      name: z
        .string()
        .min(3, 'name is too short')
        .regex(/^[a-z]+$/, 'name must be lower case'),
    });
    expect(zodIssuesToFieldErrors(issuesOf(schema, { name: 'A' }))).toEqual([
      { field: 'name', message: 'name is too short' },
    ]);
  });

  it('writes nested paths with dots and brackets, under a root', () => {
    const errors = zodIssuesToFieldErrors(
      issuesOf(body.shape.input, { lines: [{ total: 1 }, { total: 'x' }] }),
      'input',
    );
    expect(errors).toEqual([
      { field: 'input.lines[1].total', message: expect.any(String) as unknown },
    ]);
  });

  it('splits unknown keys of a strict object into one entry each', () => {
    const schema = z.strictObject({ a: z.string() });
    expect(zodIssuesToFieldErrors(issuesOf(schema, { a: 'x', b: 1, c: 2 }), 'body')).toEqual([
      { field: 'body.b', message: 'Unknown field "b".' },
      { field: 'body.c', message: 'Unknown field "c".' },
    ]);
  });

  it('uses the root for an issue about the whole value', () => {
    expect(zodIssuesToFieldErrors(issuesOf(body, 'nope'), 'body')).toEqual([
      { field: 'body', message: expect.any(String) as unknown },
    ]);
  });
});

describe('readableErrorMap', () => {
  const messages = (value: unknown): Record<string, string> =>
    Object.fromEntries(
      zodIssuesToFieldErrors(issuesOf(body, value, true)).map((e) => [e.field, e.message]),
    );

  it('says which field is missing', () => {
    expect(messages({})).toMatchObject({
      schema_id: requiredMessage('schema_id'),
      type: 'type is required',
      flag: 'flag is required',
    });
  });

  it('describes wrong types, formats, options and bounds in plain words', () => {
    expect(
      messages({
        schema_id: 'x',
        type: 'video',
        source: '',
        count: 1.5,
        input: { lines: [] },
        flag: 'yes',
      }),
    ).toEqual({
      schema_id: 'schema_id must be a UUID',
      type: 'type must be one of: text, image, pdf, webpage',
      source: 'source must not be empty',
      count: 'count must be an integer',
      'input.lines': 'input.lines must not be empty',
      flag: 'flag must be a boolean',
    });
    expect(
      messages({
        schema_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
        type: 'pdf',
        source: 'toolong',
        count: 4,
        input: { lines: [{ total: '1' }] },
        flag: true,
      }),
    ).toEqual({
      source: 'source must be at most 5 characters long',
      count: 'count must be at most 3',
      'input.lines[0].total': 'input.lines[0].total must be a number',
    });
  });

  it('leaves messages set on the schema alone', () => {
    const schema = z.object({ name: z.string({ error: 'give a name' }) });
    expect(zodIssuesToFieldErrors(issuesOf(schema, {}, true))).toEqual([
      { field: 'name', message: 'give a name' },
    ]);
  });
});
