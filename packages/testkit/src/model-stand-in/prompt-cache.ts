/**
 * The stand-in's prompt cache, after OpenAI's rule (docs/cost.md#prompt-caching): a request
 * whose prompt starts with at least 1,024 tokens some earlier request also started with reports
 * that shared start as `prompt_tokens_details.cached_tokens`, in steps of 128 tokens. The
 * prompt is read in the order a provider processes it: the model, the response format (the
 * schema), then each message in order. Only an exact prefix counts: one character changed near
 * the start, and nothing after it is cached. Tokens are 4 characters, as in the stand-in's usage.
 */
export const MIN_CACHED_TOKENS = 1_024;
const STEP_TOKENS = 128;
const CHARS_PER_TOKEN = 4;
const KEY_CHARS = MIN_CACHED_TOKENS * CHARS_PER_TOKEN;
/** Prompts remembered per shared first 1,024 tokens; the oldest forgotten first. */
const PER_KEY = 64;

export interface PromptCache {
  /** Tokens of `body`'s prompt that an earlier prompt began with; remembers this one. */
  cachedTokens(body: unknown): number;
  clear(): void;
}

export function createPromptCache(): PromptCache {
  // Only prompts sharing their first 1,024 tokens can share a cacheable prefix.
  const seen = new Map<string, string[]>();
  return {
    cachedTokens(body) {
      const prompt = promptText(body);
      if (prompt.length < KEY_CHARS) return 0;
      const key = prompt.slice(0, KEY_CHARS);
      const earlier = seen.get(key) ?? [];
      let shared = 0;
      for (const other of earlier) shared = Math.max(shared, commonPrefix(prompt, other));
      earlier.push(prompt);
      if (earlier.length > PER_KEY) earlier.shift();
      seen.set(key, earlier);
      const tokens = Math.floor(shared / CHARS_PER_TOKEN);
      if (tokens < MIN_CACHED_TOKENS) return 0;
      return (
        MIN_CACHED_TOKENS + Math.floor((tokens - MIN_CACHED_TOKENS) / STEP_TOKENS) * STEP_TOKENS
      );
    },
    clear() {
      seen.clear();
    },
  };
}

function promptText(body: unknown): string {
  const request = (body ?? {}) as {
    model?: unknown;
    response_format?: unknown;
    messages?: unknown;
  };
  const messages = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
  return [
    JSON.stringify(request.model ?? null),
    JSON.stringify(request.response_format ?? null),
    ...messages.map((message) => JSON.stringify(message)),
  ].join('\n');
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}
