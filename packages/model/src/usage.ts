import type { ModelUsage } from '@xt/contract';
import type { CompletionUsage } from 'openai/resources/completions';

/**
 * Adds one call's reported usage to an extraction's. Chat completions report the cached part of
 * the prompt in `prompt_tokens_details.cached_tokens`; a server that reports none (most
 * OpenAI-compatible ones) counts as no cache. The cached count is bounded by the prompt's, so a
 * confused server cannot make the cost negative.
 */
export function addUsage(total: ModelUsage, reported: CompletionUsage | undefined): void {
  if (!reported) return;
  const input = count(reported.prompt_tokens);
  total.inputTokens += input;
  total.outputTokens += count(reported.completion_tokens);
  total.cachedInputTokens += Math.min(input, count(reported.prompt_tokens_details?.cached_tokens));
}

function count(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
