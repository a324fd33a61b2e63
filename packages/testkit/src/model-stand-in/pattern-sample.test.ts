import { describe, expect, it } from 'vitest';
import { samplePattern } from './pattern-sample.ts';
import { sampleValue } from './sample-value.ts';

describe('samplePattern', () => {
  it('writes a string the pattern matches, as strict structured outputs would', () => {
    for (const pattern of ['^[A-Z]{3}-\\d{2}$', '^INV-\\d+$', '^\\w+@\\w+\\.com$', 'ab?c*d'])
      expect(samplePattern(pattern)).toMatch(new RegExp(pattern, 'u'));
    expect(sampleValue({ type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' })).toBe('AAA-00');
  });

  it('gives up on patterns beyond its subset', () => {
    expect(samplePattern('^(a|b)$')).toBeUndefined();
    expect(samplePattern('^[^x]$')).toBeUndefined();
  });
});
