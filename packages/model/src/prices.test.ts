import { describe, expect, it } from 'vitest';
import {
  costUsd,
  DEFAULT_PRICES,
  PriceOverridesSchema,
  priceTable,
  unknownPricedModels,
} from './prices.ts';

const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 400_000 };

describe('costUsd', () => {
  it('prices cached input, the rest of the input and the output apart', () => {
    // 600k × $2 + 400k × $0.50 + 100k × $8 per 1M
    expect(costUsd(DEFAULT_PRICES, 'gpt-4.1', 'standard', usage)).toBeCloseTo(1.2 + 0.2 + 0.8, 9);
  });

  it('uses the batch prices for batch work', () => {
    expect(costUsd(DEFAULT_PRICES, 'gpt-4.1', 'batch', usage)).toBeCloseTo(1.1, 9);
  });

  it('never counts more cached tokens than input tokens', () => {
    const odd = { inputTokens: 10, outputTokens: 0, cachedInputTokens: 50 };
    expect(costUsd(DEFAULT_PRICES, 'gpt-4.1-mini', 'standard', odd)).toBeCloseTo(10 * 0.1e-6, 12);
  });
});

describe('price overrides', () => {
  it('replace a model’s prices; cached input defaults to input, batch to standard', () => {
    const table = priceTable(
      PriceOverridesSchema.parse({ 'gpt-4.1-mini': { input: 1, output: 2 } }),
    );
    expect(table['gpt-4.1-mini']).toEqual({
      standard: { input: 1, cachedInput: 1, output: 2 },
      batch: { input: 1, cachedInput: 1, output: 2 },
    });
    expect(table['gpt-4.1']).toEqual(DEFAULT_PRICES['gpt-4.1']);
  });

  it('name the field that is wrong', () => {
    const bad = PriceOverridesSchema.safeParse({ 'gpt-4.1': { input: -1, output: 2 } });
    expect(bad.error?.issues[0]?.path).toEqual(['gpt-4.1', 'input']);
    // Any name parses; the worker checks the names against the models served (config.test.ts).
    expect(
      unknownPricedModels(priceTable({ 'gpt-5': { input: 1, output: 2 } }), ['gpt-4.1']),
    ).toEqual(['gpt-5']);
    const typo = PriceOverridesSchema.safeParse({ 'gpt-4.1': { input: 1, output: 2, ouput: 3 } });
    expect(typo.success).toBe(false);
  });
});
