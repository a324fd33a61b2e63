/*
 * What one model behind one endpoint can do, as learned from the server (probe.ts) or set by
 * the operator (MODEL_ENDPOINTS). Every request body and every reading of an answer is shaped
 * by it (dialect.ts), so a server that takes less than OpenAI's dialect still gets calls it
 * accepts and answers the service can read (docs/models.md).
 */

/**
 * How the answer's shape is enforced:
 * - `json_schema`: `response_format: json_schema` with the schema, enforced by the server;
 * - `json_object`: `response_format: json_object` (any JSON), the schema in the prompt;
 * - `prompt`: no response_format at all; the schema in the prompt and the JSON read from
 *   prose or a fenced block.
 */
export const STRUCTURED_OUTPUT_MODES = ['json_schema', 'json_object', 'prompt'] as const;
export type StructuredOutputMode = (typeof STRUCTURED_OUTPUT_MODES)[number];

/** The request field that caps the answer's length. */
export type MaxTokensField = 'max_completion_tokens' | 'max_tokens';

export interface Capabilities {
  structuredOutput: StructuredOutputMode;
  /** `json_schema` taken with `strict: true` (OpenAI's strict mode); else sent non-strict */
  strict: boolean;
  /** JSON Schema keywords the server's enforcement honours; the rest are rewritten (schema-dialect.ts) */
  schemaKeywords: {
    refs: boolean;
    pattern: boolean;
    enum: boolean;
    anyOf: boolean;
    /**
     * lengths, ranges, `format` and the rarer keywords grammar engines refuse (schema-dialect.ts);
     * unset: as `pattern`, since an engine without regular expressions seldom has these
     */
    constraints?: boolean;
  };
  /** takes image parts; without, pages and images go as OCR text */
  images: boolean;
  /** answers token log-probabilities when asked */
  logprobs: boolean;
  maxTokensField: MaxTokensField;
  /** takes `prompt_cache_key` */
  promptCacheKey: boolean;
  /** takes `temperature` */
  temperature: boolean;
  /** the context window in tokens (prompt and answer together); null: not told */
  contextTokens: number | null;
  /** the longest answer in tokens; null: not told */
  outputTokens: number | null;
  /** requests the server works at once (llama.cpp's slots); null: not told */
  slots: number | null;
  /**
   * May keep only part of a prompt longer than its window, without an error (Ollama's num_ctx,
   * llama.cpp's context shift): each answer's prompt-token count is then checked against what
   * was sent (prompt-kept.ts). OpenAI and Azure refuse such a prompt with a 400 instead.
   */
  cutsLongPrompts: boolean;
}

/** OpenAI's own dialect: what api.openai.com and Azure OpenAI take. */
export const OPENAI_CAPABILITIES: Capabilities = {
  structuredOutput: 'json_schema',
  strict: true,
  schemaKeywords: { refs: true, pattern: true, enum: true, anyOf: true },
  images: true,
  logprobs: true,
  maxTokensField: 'max_completion_tokens',
  promptCacheKey: true,
  temperature: true,
  contextTokens: null,
  outputTokens: null,
  slots: null,
  cutsLongPrompts: false,
};

/** What is assumed of a server nothing is known of yet: the least it could be. */
export const LEAST_CAPABILITIES: Capabilities = {
  structuredOutput: 'prompt',
  strict: false,
  schemaKeywords: { refs: false, pattern: false, enum: false, anyOf: false },
  images: false,
  logprobs: false,
  maxTokensField: 'max_tokens',
  promptCacheKey: false,
  temperature: true,
  contextTokens: null,
  outputTokens: null,
  slots: null,
  cutsLongPrompts: true,
};
