import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { estimateTextTokens } from '../tokens.ts';

/**
 * A server counting fewer prompt tokens than this share of the service's estimate has dropped
 * part of the prompt. The estimate errs high by design (tokens.ts), but not by this much:
 * Llama-, Qwen- and Mistral-family tokenizers count English prose at 0.8-1.1 times it, and
 * digits and CJK at more. A prompt kept whole stays well above; Ollama keeping its 4,096 of a
 * 25,500-token prompt reports 16%.
 */
export const KEPT_RATIO = 0.6;
/** Below this the counts are too small to tell a cut from a tokenizer's difference. */
const MIN_CHECKED_TOKENS = 1_000;

/** The server kept only part of the prompt it was sent (Ollama's num_ctx, llama.cpp's context shift). */
export class PromptCut extends Error {
  constructor(
    readonly sentTokens: number,
    readonly keptTokens: number,
  ) {
    super(`the server counted ${keptTokens} prompt tokens of about ${sentTokens} sent`);
    this.name = 'PromptCut';
  }
}

/** Throws PromptCut when the server's own count shows it read only part of the prompt. */
export function checkPromptKept(
  body: ChatCompletionCreateParamsNonStreaming,
  reported: number | undefined,
): void {
  if (reported === undefined || reported <= 0) return;
  const sent = promptTokensOf(body);
  if (sent < MIN_CHECKED_TOKENS) return;
  if (reported < sent * KEPT_RATIO) throw new PromptCut(sent, reported);
}

/** The text of every message, as estimated; images are left out (the server counts them its own way). */
export function promptTokensOf(body: ChatCompletionCreateParamsNonStreaming): number {
  let tokens = 0;
  for (const message of body.messages) {
    const content = message.content;
    if (typeof content === 'string') tokens += estimateTextTokens(content);
    else if (Array.isArray(content))
      for (const part of content) if (part.type === 'text') tokens += estimateTextTokens(part.text);
  }
  return tokens;
}
