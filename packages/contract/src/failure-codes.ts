/**
 * Failure codes recorded on a failed extraction (docs/api.md#failure-codes). The worker writes one of these
 * into `extractions.error_code`; the API maps it to an HTTP status without reinterpreting it.
 */
export const FAILURE_CODES = [
  'SOURCE_UNREACHABLE',
  'SOURCE_FORBIDDEN',
  'SOURCE_TOO_LARGE',
  'SOURCE_UNSUPPORTED',
  'SOURCE_UNREADABLE',
  'MODEL_UNAVAILABLE',
  'MODEL_REFUSED',
  // The model's context window cannot hold the smallest piece of the source with its prompt and
  // answer, or the server cut a prompt that could not be made smaller (docs/models.md).
  'MODEL_CONTEXT_TOO_SMALL',
  'OUTPUT_INVALID',
  'TIMEOUT',
  'INTERNAL',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

export function isFailureCode(value: unknown): value is FailureCode {
  return typeof value === 'string' && (FAILURE_CODES as readonly string[]).includes(value);
}

/**
 * What the provider reported for the calls of one extraction, summed (docs/cost.md):
 * `prompt_tokens`, `completion_tokens` and `prompt_tokens_details.cached_tokens` (a part of the
 * input tokens, billed at the cached price).
 */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export const NO_USAGE: Readonly<ModelUsage> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
});

/** What several calls or windows spent, as one: their tokens and each usage count added up. */
export function sumSpend(parts: readonly { tokens: number; usage: ModelUsage }[]): {
  tokens: number;
  usage: ModelUsage;
} {
  const usage = { ...NO_USAGE };
  let tokens = 0;
  for (const part of parts) {
    tokens += part.tokens;
    usage.inputTokens += part.usage.inputTokens;
    usage.outputTokens += part.usage.outputTokens;
    usage.cachedInputTokens += part.usage.cachedInputTokens;
  }
  return { tokens, usage };
}

/**
 * An error that ends (or retries) an extraction with a contract failure code. `retryable` says
 * whether another attempt could succeed (network faults, timeouts, 5xx/429); the worker turns
 * non-retryable ones into BullMQ UnrecoverableErrors.
 */
export class ExtractionFailure extends Error {
  readonly code: FailureCode;
  readonly retryable: boolean;
  /** Tokens already spent before the failure, so they can be recorded (uncharged). */
  tokens: number;
  /** The same spend split as the provider reported it (input, output, cached input). */
  usage: ModelUsage;
  /**
   * The part of `usage` the provider's batch interface answered, priced at its rate; none for
   * calls sent as standard (docs/cost.md).
   */
  batchUsage: ModelUsage;
  /** The soonest a retry may help, when the failing service said so (a Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(
    code: FailureCode,
    message: string,
    options: { retryable?: boolean; cause?: unknown; tokens?: number; retryAfterMs?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ExtractionFailure';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.tokens = options.tokens ?? 0;
    this.usage = { ...NO_USAGE };
    this.batchUsage = { ...NO_USAGE };
    this.retryAfterMs = options.retryAfterMs;
  }
}
