import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, estimateCost } from './prices.ts';

describe('the eval cost estimate', () => {
  it('prices the split the record reports: cached input, the rest of the input, output', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 400_000 };
    // 600k × $2 + 400k × $0.50 + 100k × $8 per 1M
    expect(estimateCost(DEFAULT_PRICES, 'gpt-4.1', 1_100_000, {}, usage)).toBeCloseTo(2.2, 9);
  });

  it('estimates the split from the answer when the service reports none', () => {
    // 4 characters of answer: 1 output token, the other 999 input
    expect(estimateCost(DEFAULT_PRICES, 'gpt-4.1', 1_000, 'ab')).toBeCloseTo(
      (999 * 2 + 1 * 8) / 1e6,
      12,
    );
    expect(estimateCost(DEFAULT_PRICES, 'unknown-model', 1_000, {})).toBeNull();
  });
});
