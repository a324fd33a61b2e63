import type { ModelUsage, PublicModel } from '@xt/contract';
import type { Spent } from '@xt/extractions';
import { costUsd, type PriceTable, type Priority } from '@xt/model';

/**
 * What an attempt's tokens cost at the prices in force now (docs/cost.md), stored with them so
 * a later price change never rewrites what was spent. A batch extraction also records what its
 * price saved against the standard one.
 */
export function priceSpend(
  prices: PriceTable,
  row: { model: PublicModel; priority: Priority },
  spend: { tokens: number; usage: ModelUsage },
): Spent & { savedUsd: number } {
  const cost = costUsd(prices, row.model, row.priority, spend.usage);
  const standard =
    row.priority === 'batch' ? costUsd(prices, row.model, 'standard', spend.usage) : cost;
  return {
    tokens: spend.tokens,
    usage: spend.usage,
    costUsd: cost,
    savedUsd: Math.max(0, standard - cost),
  };
}
