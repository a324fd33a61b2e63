import { describe, expect, it } from 'vitest';
import { ExtractionFailure } from '@xt/contract';
import { failedResponse } from './run-task.ts';

const codeOf = (err: unknown) => {
  const response = failedResponse(1, err);
  return response.ok ? undefined : response.error;
};

describe('a failed preparation’s answer', () => {
  it('keeps a contract failure’s code', () => {
    const err = new ExtractionFailure('SOURCE_UNREADABLE', 'damaged');
    expect(codeOf(err)).toEqual({
      code: 'SOURCE_UNREADABLE',
      message: 'damaged',
      retryable: false,
    });
  });

  it('fails an allocation the memory bound refused as too large, unretried', () => {
    // What V8 throws when the process's data bound refuses a Buffer or typed array.
    for (const err of [
      new RangeError('Array buffer allocation failed'),
      new RangeError('Failed to allocate memory'),
      new Error('vips_malloc: out of memory --- size == 1073741824'),
    ]) {
      expect(codeOf(err)).toMatchObject({ code: 'SOURCE_TOO_LARGE', retryable: false });
    }
  });

  it('fails anything else as the service’s own, retried', () => {
    expect(codeOf(new TypeError('x is undefined'))).toMatchObject({
      code: 'INTERNAL',
      retryable: true,
    });
  });
});
