import { describe, expect, it } from 'vitest';
import { failureHttpStatus } from './failure-status.ts';

describe('failure codes', () => {
  it('maps source failures to 422 and model failures to 502', () => {
    expect(failureHttpStatus('SOURCE_UNREADABLE')).toBe(422);
    expect(failureHttpStatus('MODEL_UNAVAILABLE')).toBe(502);
    expect(failureHttpStatus('INTERNAL')).toBe(500);
    expect(failureHttpStatus('TIMEOUT')).toBe(500);
    expect(failureHttpStatus('OUTPUT_INVALID')).toBe(502);
  });
});
