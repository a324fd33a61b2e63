import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '@xt/model';
import { priceSpend } from './cost.ts';

const spend = {
  tokens: 3_000_000,
  usage: { inputTokens: 2_000_000, outputTokens: 1_000_000, cachedInputTokens: 1_000_000 },
};

describe('priceSpend', () => {
  it('prices standard work at the standard prices, saving nothing', () => {
    // 1M × $2 + 1M × $0.50 + 1M × $8
    expect(priceSpend(DEFAULT_PRICES, { model: 'gpt-4.1', priority: 'standard' }, spend)).toEqual({
      ...spend,
      costUsd: 10.5,
      savedUsd: 0,
    });
  });

  it('prices batch work at the batch prices and records what that saved', () => {
    const spent = priceSpend(DEFAULT_PRICES, { model: 'gpt-4.1', priority: 'batch' }, spend);
    expect(spent.costUsd).toBeCloseTo(5.25, 9);
    expect(spent.savedUsd).toBeCloseTo(5.25, 9);
  });
});
