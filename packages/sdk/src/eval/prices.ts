/** USD per million tokens; `cachedInput` defaults to `input`. */
export interface Price {
  input: number;
  output: number;
  cachedInput?: number;
}

/** The split a record's `usage` reports (docs/cost.md). */
export interface TokenSplit {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export type PriceTable = Record<string, Price>;

/** OpenAI's list prices for the models the service offers (USD per 1M tokens). */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4.1': { input: 2.0, output: 8.0, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
};

/**
 * From the split the record's `usage` reports: cached input, the rest of the input and the
 * output each at its price. A service too old to report a split gives one token total; it is
 * then estimated: the answer's JSON at four characters a token is output, the rest input.
 * Null when the model has no price.
 */
export function estimateCost(
  prices: PriceTable,
  model: string,
  totalTokens: number,
  output: unknown,
  usage?: TokenSplit,
): number | null {
  const price = prices[model];
  if (!price) return null;
  if (usage) {
    const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
    return (
      ((usage.inputTokens - cached) * price.input +
        cached * (price.cachedInput ?? price.input) +
        usage.outputTokens * price.output) /
      1_000_000
    );
  }
  const answer = output === undefined ? 0 : Math.ceil(JSON.stringify(output).length / 4);
  const outputTokens = Math.min(totalTokens, answer);
  return ((totalTokens - outputTokens) * price.input + outputTokens * price.output) / 1_000_000;
}

/** Reads `--prices`: `{ "<model>": { "input": n, "output": n } }`, merged over the defaults. */
export function parsePriceTable(text: string): PriceTable {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('--prices: the file must hold an object of models');
  }
  const table: PriceTable = { ...DEFAULT_PRICES };
  for (const [model, price] of Object.entries(parsed)) {
    const p = price as Partial<Price> | null;
    if (
      typeof p?.input !== 'number' ||
      typeof p.output !== 'number' ||
      p.input < 0 ||
      p.output < 0
    ) {
      throw new Error(
        `--prices: ${model} needs non-negative numbers "input" and "output" (USD per 1M tokens)`,
      );
    }
    table[model] = { input: p.input, output: p.output };
  }
  return table;
}
