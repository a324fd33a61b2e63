import { NO_USAGE, type ModelUsage, type PublicModel } from '@xt/contract';
import type { Spent } from '@xt/extractions';
import { costUsd, type PriceTable } from '@xt/model';

/** What an attempt spent: every call's tokens, and the part the provider's batch interface answered. */
export interface Spend {
  tokens: number;
  usage: ModelUsage;
  /**
   * The part of `usage` answered through the provider's batch interface (batch/replay.ts),
   * priced at its rate; the rest was sent as standard calls. None by default: a standard
   * extraction, and a batch one whose calls all went standard (the window's fallback, lines the
   * provider failed, a provider without the interface), pays the standard price.
   */
  batchUsage?: ModelUsage;
}

/**
 * What an attempt's tokens cost at the prices in force now (docs/cost.md), stored with them so
 * a later price change never rewrites what was spent. Each call is priced by how it was sent,
 * not by the extraction's `priority`; what the batch price saved against the standard one is
 * recorded beside it.
 */
export function priceSpend(
  prices: PriceTable,
  row: { model: PublicModel },
  spend: Spend,
): Spent & { savedUsd: number } {
  const batch = within(spend.batchUsage ?? NO_USAGE, spend.usage);
  const standard = minus(spend.usage, batch);
  const batchCost = costUsd(prices, row.model, 'batch', batch);
  return {
    tokens: spend.tokens,
    usage: spend.usage,
    costUsd: costUsd(prices, row.model, 'standard', standard) + batchCost,
    savedUsd: Math.max(0, costUsd(prices, row.model, 'standard', batch) - batchCost),
  };
}

/** The batch part, never more than the whole in any count (a confused report cannot go negative). */
function within(part: ModelUsage, whole: ModelUsage): ModelUsage {
  const inputTokens = Math.min(part.inputTokens, whole.inputTokens);
  return {
    inputTokens,
    outputTokens: Math.min(part.outputTokens, whole.outputTokens),
    cachedInputTokens: Math.min(part.cachedInputTokens, whole.cachedInputTokens, inputTokens),
  };
}

function minus(whole: ModelUsage, part: ModelUsage): ModelUsage {
  return {
    inputTokens: whole.inputTokens - part.inputTokens,
    outputTokens: whole.outputTokens - part.outputTokens,
    cachedInputTokens: Math.max(0, whole.cachedInputTokens - part.cachedInputTokens),
  };
}
