import { describe, expect, it } from 'vitest';
import { parse } from 'node:querystring';
import { HttpError } from '../errors/errors.ts';
import {
  assertListQuery,
  containsPattern,
  escapeLike,
  extractionListQuerySchema,
  listQuerySchema,
  MAX_PAGE,
  parseListQuery,
} from './list-query.ts';
import type { ListQueryResult } from './list-query.ts';

function errorsOf(result: ListQueryResult): { field: string; message: string }[] {
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`);
  return result.errors;
}

function valueOf(result: ListQueryResult) {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.errors)}`);
  return result.value;
}

const fieldsOf = (query: Record<string, unknown>, extraction = false): string[] =>
  errorsOf(parseListQuery(query, { extraction })).map((e) => e.field);

describe('parseListQuery: page and limit', () => {
  it('defaults to page 1 of 10', () => {
    expect(valueOf(parseListQuery({}))).toEqual({ page: 1, limit: 10 });
  });

  it('reads integers given as text', () => {
    expect(valueOf(parseListQuery({ page: '3', limit: '25' }))).toEqual({ page: 3, limit: 25 });
    expect(valueOf(parseListQuery({ page: '1', limit: '1' }))).toEqual({ page: 1, limit: 1 });
    expect(valueOf(parseListQuery({ limit: '100' })).limit).toBe(100);
    expect(valueOf(parseListQuery({ page: '007' })).page).toBe(7);
  });

  it('accepts a page far past the end (it will simply be empty)', () => {
    expect(valueOf(parseListQuery({ page: '999999' })).page).toBe(999999);
    expect(valueOf(parseListQuery({ page: String(MAX_PAGE) })).page).toBe(MAX_PAGE);
  });

  it.each([
    'abc',
    '0',
    '-1',
    '1.5',
    '1e2',
    '',
    ' 2',
    '+2',
    '0x10',
    'NaN',
    'Infinity',
    String(MAX_PAGE + 1),
  ])('rejects page=%j with a message on page', (page) => {
    const errors = errorsOf(parseListQuery({ page }));
    expect(errors).toEqual([{ field: 'page', message: 'page must be an integer of at least 1' }]);
  });

  it.each(['0', '101', '-5', '10.0', 'ten', '', '1000000000000000000000'])(
    'rejects limit=%j with a message on limit',
    (limit) => {
      expect(errorsOf(parseListQuery({ limit }))).toEqual([
        { field: 'limit', message: 'limit must be an integer from 1 to 100' },
      ]);
    },
  );

  it('rejects a repeated parameter instead of picking one', () => {
    const errors = errorsOf(parseListQuery({ page: ['1', '2'], limit: ['5', '5'] }));
    expect(errors).toEqual([
      { field: 'page', message: 'page must be given once, not 2 times' },
      { field: 'limit', message: 'limit must be given once, not 2 times' },
    ]);
  });

  it('rejects a nested object from an extended query parser', () => {
    expect(fieldsOf({ page: { gt: '1' } })).toEqual(['page']);
  });

  it('accepts numbers from callers that already parsed them', () => {
    expect(valueOf(parseListQuery({ page: 2, limit: 50 }))).toEqual({ page: 2, limit: 50 });
    expect(fieldsOf({ page: 1.5, limit: 0 })).toEqual(['page', 'limit']);
  });
});

describe('parseListQuery: dates', () => {
  it('turns startDate and endDate into a half-open UTC range of whole days', () => {
    const value = valueOf(parseListQuery({ startDate: '2026-01-31', endDate: '2026-02-28' }));
    expect(value.startDate?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(value.endDateExclusive?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect('endDate' in value).toBe(false);
  });

  it('allows the same day for both bounds, and either bound alone', () => {
    const same = valueOf(parseListQuery({ startDate: '2026-05-05', endDate: '2026-05-05' }));
    expect(same.startDate?.toISOString()).toBe('2026-05-05T00:00:00.000Z');
    expect(same.endDateExclusive?.toISOString()).toBe('2026-05-06T00:00:00.000Z');
    expect(valueOf(parseListQuery({ startDate: '2026-05-05' })).endDateExclusive).toBeUndefined();
    expect(valueOf(parseListQuery({ endDate: '2026-12-31' })).endDateExclusive?.toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it.each([
    '2026-02-30',
    '2026-13-01',
    '2026-1-1',
    '01/02/2026',
    '2026-01-01T00:00:00Z',
    'today',
    '',
  ])('rejects the malformed date %j on its own field', (date) => {
    expect(errorsOf(parseListQuery({ startDate: date }))).toEqual([
      {
        field: 'startDate',
        message: 'startDate must be a real calendar date in the form YYYY-MM-DD',
      },
    ]);
    expect(fieldsOf({ endDate: date })).toEqual(['endDate']);
  });

  it('rejects startDate after endDate on startDate', () => {
    expect(errorsOf(parseListQuery({ startDate: '2026-03-02', endDate: '2026-03-01' }))).toEqual([
      { field: 'startDate', message: 'startDate must not be after endDate' },
    ]);
  });

  it('reports the date order next to other problems, one entry per field', () => {
    expect(
      fieldsOf({
        page: '0',
        limit: 'x',
        startDate: '2026-03-02',
        endDate: '2026-03-01',
        search: 'é'.repeat(256),
      }),
    ).toEqual(['page', 'limit', 'search', 'startDate']);
  });

  it('does not compare dates when one of them is already invalid', () => {
    expect(fieldsOf({ startDate: '2026-03-02', endDate: '2026-02-30' })).toEqual(['endDate']);
  });

  it('rejects repeated dates', () => {
    expect(fieldsOf({ startDate: ['2026-01-01', '2026-01-02'] })).toEqual(['startDate']);
  });
});

describe('parseListQuery: search', () => {
  it('trims the search text', () => {
    expect(valueOf(parseListQuery({ search: '  Invoice 50%  ' })).search).toBe('Invoice 50%');
  });

  it('treats an empty or blank search as absent', () => {
    expect('search' in valueOf(parseListQuery({ search: '' }))).toBe(false);
    expect('search' in valueOf(parseListQuery({ search: '   \t ' }))).toBe(false);
  });

  it('allows 255 characters (after trimming) and rejects 256', () => {
    expect(valueOf(parseListQuery({ search: ` ${'a'.repeat(255)} ` })).search).toHaveLength(255);
    expect(valueOf(parseListQuery({ search: '😀'.repeat(255) })).search).toBe('😀'.repeat(255));
    expect(errorsOf(parseListQuery({ search: 'a'.repeat(256) }))).toEqual([
      { field: 'search', message: 'search must be at most 255 characters long' },
    ]);
  });

  it('rejects a repeated search', () => {
    expect(fieldsOf({ search: ['a', 'b'] })).toEqual(['search']);
  });
});

describe('parseListQuery: extraction filters', () => {
  const id = '3F2504E0-4F89-41D3-9A0C-0305E82C3301';

  it('accepts status and schema_id, lower-casing the id', () => {
    const value = valueOf(
      parseListQuery({ status: 'completed', schema_id: id }, { extraction: true }),
    );
    expect(value).toEqual({ page: 1, limit: 10, status: 'completed', schemaId: id.toLowerCase() });
  });

  it.each(['pending', 'processing', 'completed', 'failed'])('accepts status %s', (status) => {
    expect(valueOf(parseListQuery({ status }, { extraction: true })).status).toBe(status);
  });

  it.each(['done', 'COMPLETED', '', 'pending,failed'])('rejects status %j', (status) => {
    expect(errorsOf(parseListQuery({ status }, { extraction: true }))).toEqual([
      { field: 'status', message: 'status must be one of: pending, processing, completed, failed' },
    ]);
  });

  it.each(['not-a-uuid', '', '3f2504e0-4f89-41d3-9a0c-0305e82c330', `${id}x`, `{${id}}`, '123'])(
    'rejects schema_id %j on schema_id',
    (schemaId) => {
      expect(errorsOf(parseListQuery({ schema_id: schemaId }, { extraction: true }))).toEqual([
        { field: 'schema_id', message: 'schema_id must be a UUID' },
      ]);
    },
  );

  it('rejects repeated extraction filters', () => {
    expect(fieldsOf({ status: ['pending', 'failed'], schema_id: [id, id] }, true)).toEqual([
      'status',
      'schema_id',
    ]);
  });

  it('refuses a parameter the route does not take, with the spelling it takes', () => {
    expect(fieldsOf({ status: 'pending', schema_id: id, sort: 'name' })).toEqual([
      'status',
      'schema_id',
      'sort',
    ]);
    const [near] = errorsOf(parseListQuery({ schemaId: id }, { extraction: true }));
    expect(near).toEqual({
      field: 'schemaId',
      message: expect.stringMatching(
        /^Unknown query parameter "schemaId"\. Did you mean "schema_id"\?/,
      ),
    });
    expect(near!.message).toContain('Allowed parameters: page, limit, startDate, endDate, search');
    const [cased] = errorsOf(parseListQuery({ Limit: '5' }));
    expect(cased!.message).toContain('Did you mean "limit"?');
    const [far] = errorsOf(parseListQuery({ sort: 'name' }, { extraction: true }));
    expect(far!.message).not.toContain('Did you mean');
  });

  it('reports an unknown parameter beside every other problem', () => {
    expect(fieldsOf({ page: '0', schemaId: id }, true)).toEqual(['page', 'schemaId']);
  });
});

describe('list query schemas', () => {
  it('are zod schemas usable on their own', () => {
    expect(listQuerySchema.safeParse({ page: '2' }).success).toBe(true);
    expect(extractionListQuerySchema.safeParse({ status: 'nope' }).success).toBe(false);
  });
});

describe('escapeLike', () => {
  it('escapes %, _ and the escape character itself', () => {
    expect(escapeLike('50%_off\\now')).toBe('50\\%\\_off\\\\now');
    expect(escapeLike('plain text')).toBe('plain text');
    expect(escapeLike('%%')).toBe('\\%\\%');
  });
});

describe('containsPattern', () => {
  it('wraps the escaped text for a substring match', () => {
    expect(containsPattern('a_b')).toBe('%a\\_b%');
  });
});

describe('with a real query-string parser', () => {
  it('reads what node:querystring (Express 5 default) produces, null prototype included', () => {
    const query = parse('page=2&limit=5&search=%2550%25&startDate=2026-01-01&status=failed');
    expect(Object.getPrototypeOf(query)).toBeNull();
    const value = valueOf(parseListQuery(query, { extraction: true }));
    expect(value).toMatchObject({ page: 2, limit: 5, search: '%50%', status: 'failed' });
  });

  it('catches a repeated parameter from the URL', () => {
    expect(fieldsOf(parse('page=1&page=2'))).toEqual(['page']);
  });
});

describe('assertListQuery', () => {
  it('returns the value or throws a 422 listing every problem', () => {
    expect(assertListQuery({ page: '4' })).toEqual({ page: 4, limit: 10 });
    try {
      assertListQuery({ page: 'x', schema_id: 'y' }, { extraction: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(422);
      expect((error as HttpError).fields?.map((f) => f.field)).toEqual(['page', 'schema_id']);
    }
  });
});
