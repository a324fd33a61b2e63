import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '@xt/model';
import { priceSpend } from './cost.ts';

const spend = {
  tokens: 3_000_000,
  usage: { inputTokens: 2_000_000, outputTokens: 1_000_000, cachedInputTokens: 1_000_000 },
};
const gpt41 = { model: 'gpt-4.1' as const };

describe('priceSpend', () => {
  it('prices standard calls at the standard prices, saving nothing', () => {
    // 1M × $2 + 1M × $0.50 + 1M × $8
    expect(priceSpend(DEFAULT_PRICES, gpt41, spend)).toEqual({
      ...spend,
      costUsd: 10.5,
      savedUsd: 0,
    });
  });

  it('prices calls the batch interface answered at the batch prices and records what that saved', () => {
    const spent = priceSpend(DEFAULT_PRICES, gpt41, { ...spend, batchUsage: spend.usage });
    expect(spent.costUsd).toBeCloseTo(5.25, 9);
    expect(spent.savedUsd).toBeCloseTo(5.25, 9);
  });

  it('prices the calls a batch extraction sent as standard calls at the standard prices', () => {
    // Half the input and output went through the batch interface, the rest as standard calls
    // (the window's fallback, or lines the provider failed).
    const batchUsage = { inputTokens: 1_000_000, outputTokens: 500_000, cachedInputTokens: 0 };
    const spent = priceSpend(DEFAULT_PRICES, gpt41, { ...spend, batchUsage });
    // batch: 1M × $1 + 0.5M × $4 = $3; standard: 1M cached × $0.50 + 0.5M × $8 = $4.50
    expect(spent.costUsd).toBeCloseTo(7.5, 9);
    // the batch part at standard prices would have been 1M × $2 + 0.5M × $8 = $6
    expect(spent.savedUsd).toBeCloseTo(3, 9);
    expect(spent.usage).toEqual(spend.usage);
  });

  it('never prices more batch tokens than were spent', () => {
    const spent = priceSpend(DEFAULT_PRICES, gpt41, {
      tokens: 10,
      usage: { inputTokens: 8, outputTokens: 2, cachedInputTokens: 0 },
      batchUsage: { inputTokens: 80, outputTokens: 20, cachedInputTokens: 50 },
    });
    expect(spent.costUsd).toBeCloseTo((8 * 1 + 2 * 4) / 1_000_000, 12);
  });
});
