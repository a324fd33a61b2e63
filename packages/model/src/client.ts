import OpenAI, { AzureOpenAI } from 'openai';
import type { PublicModel } from '@xt/contract';

export interface ModelClientOptions {
  /** the endpoint's name (MODEL_ENDPOINTS), for messages and metrics; default `default` */
  endpointName?: string | undefined;
  apiKey: string;
  /**
   * Azure OpenAI through the SDK's own Azure client: `baseURL` is then the resource's endpoint
   * and the provider model name is the deployment, which the SDK puts in the path.
   */
  azure?: { apiVersion: string } | undefined;
  /** any OpenAI-compatible server; OpenAI's own when absent */
  baseURL?: string | undefined;
  /** public model name → provider model name; unmapped names are sent as they are */
  modelMap: Record<string, string>;
  /** per HTTP call: its floor, for a prompt of no length */
  timeoutMs: number;
  /**
   * Added to a call's deadline per thousand prompt tokens: a local server reads a long prompt
   * for minutes on a CPU, and a fixed deadline would abandon work it has begun. Default 0.
   */
  timeoutPer1kTokensMs?: number | undefined;
  /** how long a call waits for a server that answers 503 while loading its model; default 0 */
  loadWaitMs?: number | undefined;
  /**
   * SDK-internal retries per call (429, 5xx, connection errors). Keep it low: the job queue
   * retries the whole extraction with backoff, and retries multiply.
   */
  maxRetries: number;
  /** estimated input tokens per call above which a document is split; default 120,000 */
  maxInputTokens?: number | undefined;
  /** chunks of one document extracted at the same time; default 4 */
  concurrency?: number | undefined;
  /**
   * Cost ceilings per extraction (docs/security.md#cost-bounds): estimated input tokens over all
   * its calls, and calls (chunks, repairs, continuations). A source past the first, or whose
   * chunks alone pass the second, fails before any call; unlimited when absent.
   */
  maxExtractionInputTokens?: number | undefined;
  maxExtractionCalls?: number | undefined;
  /** repair calls after an invalid answer, per chunk; default 2 */
  maxRepairs?: number | undefined;
  /**
   * Continuation calls per answer when the output limit cuts it off inside a list; default 8.
   * A list still unfinished then is reported (OUTPUT_TRUNCATED), never silently shortened.
   */
  maxContinuations?: number | undefined;
  /** cap on the model's answer (`max_completion_tokens`); the provider's default when absent */
  maxOutputTokens?: number | undefined;
  /**
   * Default 0: extraction wants the most likely reading, the same on every retry. `null` leaves
   * it out, for models that reject the parameter (reasoning models behind MODEL_MAP).
   */
  temperature?: number | null | undefined;
  /**
   * Send `prompt_cache_key` (a hash of the schema) so requests with one schema share OpenAI's
   * prompt cache. Default: only when talking to OpenAI itself, since a strict
   * OpenAI-compatible server may refuse a parameter it does not know.
   */
  promptCacheKey?: boolean | undefined;
  /**
   * Runs each HTTP call, e.g. through a limiter shared by the whole process so a slow provider
   * cannot make calls pile up without bound. Default: at once.
   */
  schedule?: Schedule | undefined;
  /** Told of every HTTP call as it ends (for metrics); must not throw. */
  onCall?: ((call: ModelCallRecord) => void) | undefined;
}

/** What a scheduler is told of one chat call, to learn its server's pace by. */
export interface ScheduledCall {
  providerModel: string;
  /** the prompt's estimated tokens */
  promptTokens: number;
  /** set once the call waited for a server loading its model: its latency teaches nothing */
  waitedForLoading: boolean;
}

export type Schedule = <T>(call: () => Promise<T>, about?: ScheduledCall) => Promise<T>;

/**
 * How one call ended: `ok` (a valid answer), `invalid` (JSON that breaks the structure, or none:
 * a repair follows), `truncated` (cut off by the output limit), `refused`, or, when no answer
 * came, `unavailable` (provider refused or unreachable), `timeout`, `error`.
 */
export type ModelCallOutcome =
  'ok' | 'invalid' | 'truncated' | 'refused' | 'unavailable' | 'timeout' | 'error';

export interface ModelCallRecord {
  /** The provider model name the call was sent with (after MODEL_MAP). */
  model: string;
  outcome: ModelCallOutcome;
  promptTokens: number;
  completionTokens: number;
}

export interface ModelClient {
  /** the endpoint this client calls (MODEL_ENDPOINTS), named in failures and metrics */
  readonly endpointName: string;
  readonly openai: OpenAI;
  providerModel(model: PublicModel): string;
  readonly maxInputTokens: number;
  readonly concurrency: number;
  readonly maxExtractionInputTokens: number;
  readonly maxExtractionCalls: number;
  readonly maxRepairs: number;
  readonly maxContinuations: number;
  readonly maxOutputTokens: number | undefined;
  readonly temperature: number | null;
  readonly promptCacheKey: boolean;
  /** removes the API key from text that may be logged or stored */
  readonly redact: (text: string) => string;
  /** runs one HTTP call (through the process-wide bound, when there is one) */
  readonly schedule: Schedule;
  readonly onCall: (call: ModelCallRecord) => void;
  /** one call's deadline for a prompt of this many tokens: the floor plus the allowance */
  callTimeoutMs(promptTokens: number): number;
  /** how long a call waits for a server loading its model (endpoints/loading.ts) */
  readonly loadWaitMs: number;
}

export const DEFAULT_MAX_INPUT_TOKENS = 120_000;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_MAX_REPAIRS = 2;
export const DEFAULT_MAX_CONTINUATIONS = 8;

export function createModelClient(options: ModelClientOptions): ModelClient {
  const openai = options.azure
    ? new AzureOpenAI({
        apiKey: options.apiKey,
        endpoint: options.baseURL,
        apiVersion: options.azure.apiVersion,
        timeout: options.timeoutMs,
        maxRetries: options.maxRetries,
      })
    : new OpenAI({
        apiKey: options.apiKey,
        // explicit, so the SDK never falls back to reading OPENAI_BASE_URL itself
        baseURL: options.baseURL ?? 'https://api.openai.com/v1',
        timeout: options.timeoutMs,
        maxRetries: options.maxRetries,
      });
  const key = options.apiKey;
  return {
    endpointName: options.endpointName ?? 'default',
    openai,
    providerModel: (model) => options.modelMap[model] ?? model,
    maxInputTokens: positive(options.maxInputTokens, DEFAULT_MAX_INPUT_TOKENS),
    concurrency: positive(options.concurrency, DEFAULT_CONCURRENCY),
    maxExtractionInputTokens: positive(options.maxExtractionInputTokens, Infinity),
    maxExtractionCalls: positive(options.maxExtractionCalls, Infinity),
    maxRepairs: Math.max(0, Math.floor(options.maxRepairs ?? DEFAULT_MAX_REPAIRS)),
    maxContinuations: Math.max(
      0,
      Math.floor(options.maxContinuations ?? DEFAULT_MAX_CONTINUATIONS),
    ),
    maxOutputTokens: options.maxOutputTokens,
    temperature: options.temperature === undefined ? 0 : options.temperature,
    promptCacheKey: options.promptCacheKey ?? (!options.azure && isOpenAi(options.baseURL)),
    schedule: options.schedule ?? ((call) => call()),
    loadWaitMs: Math.max(0, options.loadWaitMs ?? 0),
    callTimeoutMs: (promptTokens) =>
      options.timeoutMs +
      Math.ceil(Math.max(0, promptTokens) / 1000) * Math.max(0, options.timeoutPer1kTokensMs ?? 0),
    onCall: options.onCall ?? (() => undefined),
    redact: (text) => {
      let out = key.length >= 4 ? text.split(key).join('[redacted]') : text;
      // provider messages quote a masked key ("sk-abc***xyz"); drop even that
      out = out.replace(/\b(sk|sess|rk)-[A-Za-z0-9_*-]{4,}/g, '[redacted]');
      return out;
    },
  };
}

function isOpenAi(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return true;
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}
