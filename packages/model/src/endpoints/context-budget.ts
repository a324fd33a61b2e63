import type { Capabilities } from './capabilities.ts';

/**
 * Share of a model's window kept free because the service counts tokens without the server's
 * tokenizer (tokens.ts: about 4 characters of English a token, erring high). Llama, Qwen and
 * Mistral tokenizers run near 3.5-4.5 characters a token on prose but fewer on digits and
 * tables, so 15% keeps a table-heavy prompt inside the window (docs/models.md).
 */
export const CONTEXT_MARGIN = 0.15;

/** The answer's share of a window when neither the server nor the operator caps it. */
const ANSWER_SHARE = 0.25;
/** …and never less than this: a small schema's answer still needs room. */
const MIN_ANSWER_TOKENS = 256;

export interface ContextBudget {
  /** source tokens one call may carry */
  sourceTokens: number;
  /** the cap to send on the answer, when the window sets one */
  answerTokens: number | undefined;
  fixedTokens: number;
  contextTokens: number | undefined;
  /** true when the model's window, not the configured budget, is the bound */
  fromContext: boolean;
}

/**
 * How a call is shaped to fit: the configured input budget (MODEL_MAX_INPUT_TOKENS) or, when
 * the model's context window is known and smaller, the window less the answer's room and the
 * margin. Prompt and answer share a window, so the answer's cap is sent with every call.
 */
export function contextBudget(input: {
  configured: number;
  capabilities: Capabilities | undefined;
  maxOutputTokens: number | undefined;
  fixedTokens: number;
}): ContextBudget {
  const context = input.capabilities?.contextTokens ?? undefined;
  const configuredSource = input.configured - input.fixedTokens;
  if (!context)
    return {
      sourceTokens: configuredSource,
      answerTokens: undefined,
      fixedTokens: input.fixedTokens,
      contextTokens: undefined,
      fromContext: false,
    };
  const caps = [
    input.capabilities?.outputTokens,
    input.maxOutputTokens,
    Math.max(MIN_ANSWER_TOKENS, Math.floor(context * ANSWER_SHARE)),
  ].filter((n): n is number => typeof n === 'number' && n > 0);
  const answerTokens = Math.min(...caps);
  const prompt = Math.floor((context - answerTokens) * (1 - CONTEXT_MARGIN));
  const fromContext = prompt < input.configured;
  return {
    sourceTokens: (fromContext ? prompt : input.configured) - input.fixedTokens,
    answerTokens,
    fixedTokens: input.fixedTokens,
    contextTokens: context,
    fromContext,
  };
}
