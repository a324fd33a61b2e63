import { z } from 'zod';
import type { ModelUsage, PublicModel } from '@xt/contract';

/** USD per 1,000,000 tokens. `cachedInput` is what an input token the provider had cached costs. */
export interface TokenPrices {
  input: number;
  cachedInput: number;
  output: number;
}

/** One model's prices at the interactive (`standard`) and the batch interface's rate. */
export interface ModelPrices {
  standard: TokenPrices;
  batch: TokenPrices;
}

/** Prices by public name; a name without prices (a model the operator runs) costs nothing. */
export type PriceTable = Record<PublicModel, ModelPrices>;

const FREE: ModelPrices = {
  standard: { input: 0, cachedInput: 0, output: 0 },
  batch: { input: 0, cachedInput: 0, output: 0 },
};

export type Priority = 'standard' | 'batch';

/**
 * OpenAI's published prices for the public models, per 1M tokens, as listed on
 * https://platform.openai.com/docs/pricing since the GPT-4.1 launch (2025-04-14) and taken into
 * this table on 2026-11-28. The Batch API costs half of every standard price (OpenAI's stated
 * 50% discount; the cached-input batch price is that half of the cached price too). Operators
 * with other prices (a contract, Azure, another provider behind MODEL_MAP) override them with
 * MODEL_PRICES (docs/cost.md).
 */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4.1': {
    standard: { input: 2, cachedInput: 0.5, output: 8 },
    batch: { input: 1, cachedInput: 0.25, output: 4 },
  },
  'gpt-4.1-mini': {
    standard: { input: 0.4, cachedInput: 0.1, output: 1.6 },
    batch: { input: 0.2, cachedInput: 0.05, output: 0.8 },
  },
};

const price = z.number().finite().min(0);
const tokenPrices = z.strictObject({
  input: price,
  // Absent: cached input tokens cost as much as any input token (a provider without a cache).
  cachedInput: price.optional(),
  output: price,
});

/**
 * MODEL_PRICES: `{"gpt-4.1": {"input": 2, "cachedInput": 0.5, "output": 8, "batch": {…}}}`, per
 * public model, USD per 1M tokens. A model given replaces its defaults whole; without `batch`
 * its batch calls cost the standard prices (a provider that gives no batch discount).
 */
const modelPrices = tokenPrices.extend({ batch: tokenPrices.optional() }).optional();

// Any public name: the names served are known only with MODEL_ENDPOINTS, so the worker checks
// the keys against them once both are read (unknownPricedModels).
export const PriceOverridesSchema = z
  .record(z.string(), modelPrices)
  .meta({ description: 'price overrides per public model, USD per 1M tokens' });

export type PriceOverrides = z.output<typeof PriceOverridesSchema>;

/** The defaults with the operator's overrides applied. */
export function priceTable(overrides: PriceOverrides = {}): PriceTable {
  const table: PriceTable = { ...DEFAULT_PRICES };
  for (const model of Object.keys(overrides)) {
    const given = overrides[model];
    if (!given) continue;
    const standard = complete(given);
    table[model] = { standard, batch: given.batch ? complete(given.batch) : standard };
  }
  return table;
}

function complete(given: z.output<typeof tokenPrices>): TokenPrices {
  return {
    input: given.input,
    cachedInput: given.cachedInput ?? given.input,
    output: given.output,
  };
}

/**
 * What the usage cost at the table's prices, in USD: cached input tokens at the cached price,
 * the rest of the input at the input price, output at the output price.
 */
export function costUsd(
  table: PriceTable,
  model: PublicModel,
  priority: Priority,
  usage: ModelUsage,
): number {
  const prices = (table[model] ?? FREE)[priority];
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const dollars =
    (usage.inputTokens - cached) * prices.input +
    cached * prices.cachedInput +
    usage.outputTokens * prices.output;
  return dollars / 1_000_000;
}

/**
 * Names the table prices that no endpoint serves, beside OpenAI's defaults: a typo in
 * MODEL_PRICES the operator should hear of at start rather than find as a free model later.
 */
export function unknownPricedModels(table: PriceTable, served: readonly string[]): string[] {
  return Object.keys(table).filter((name) => !served.includes(name) && !(name in DEFAULT_PRICES));
}
