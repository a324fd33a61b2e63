import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';

describe('ApiError', () => {
  it('names each field of a 422 once', () => {
    const err = new ApiError(422, {
      status: false,
      message: 'Validation failed',
      errors: [
        {
          field: 'source',
          message: 'source is not a spreadsheet: the file is a TXT file (type text reads it)',
        },
        { field: 'schema_id', message: 'must be a schema of this account' },
      ],
    });
    expect(err.message).toBe(
      '422 Validation failed: source is not a spreadsheet: the file is a TXT file (type text reads it); schema_id: must be a schema of this account',
    );
  });
});
