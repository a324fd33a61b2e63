import { APIError } from 'openai';
import type { Capabilities } from './capabilities.ts';

/*
 * A server that does not take a request feature says so in a 400 (or 422, or, for a few, a
 * 404 or 500), each in its own words. Reading which feature it named lets the caller weaken
 * that one capability and send the call again, rather than fail every extraction on that
 * endpoint (issue #36: `json_schema` refused, `logprobs` refused, images on a text model).
 * The texts below are the servers' own; a refusal they do not match names nothing, and the
 * call fails as before.
 */

/** A request feature a server refused. */
export type RefusedField =
  /** the structured-output mode (`json_schema`, or `json_object`) */
  | 'response_format'
  /** the schema's keywords, refused by the server's grammar engine */
  | 'schema'
  | 'strict'
  | 'logprobs'
  | 'prompt_cache_key'
  | 'max_completion_tokens'
  | 'max_tokens'
  | 'temperature'
  | 'images';

/** The part of a long error body read: the feature is named near its start. */
const MAX_TEXT = 4_000;
/** How far from a phrase a field's name is looked for. */
const AFTER = 200;
const BEFORE = 160;

/** Phrases that say the model takes no images; matched anywhere in the error. */
const IMAGE_PHRASES = [
  // llama.cpp server without --mmproj, answered as a 500:
  // "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj"
  // (ggml-org/llama.cpp#15377, #13566: "image input is not supported by this server")
  'image input is not supported',
  // OpenRouter, a 404: "No endpoints found that support image input" (NousResearch/hermes-agent#23411)
  'no endpoints found that support image input',
  // vLLM serving a text-only model, a 400: "<model> is not a multimodal model" (vllm-project/vllm#23402)
  'is not a multimodal model',
  // Ollama, a 500: "Failed to create new sequence: failed to process inputs: this model is
  // missing data required for image input" (valentinfrlch/ha-llmvision#691, open-webui#13077)
  'missing data required for image input',
  // gateways and compatibility layers: "does not support vision", "does not support images"
  'does not support vision',
  'does not support image',
  'does not support multimodal',
];

/** Phrases that say the grammar engine cannot take the schema's keywords. */
const SCHEMA_PHRASES = [
  // vLLM's xgrammar backend: "The provided JSON schema contains features not supported by xgrammar."
  'json schema contains features not supported',
  // vLLM: "Failed to transform json schema into a grammar: …" / "… into a regex: …"
  'failed to transform json schema',
];

/** Phrases that refuse the structured-output mode itself. */
const RESPONSE_FORMAT_PHRASES = [
  // LM Studio refusing json_object: "'response_format.type' must be 'json_schema'" and, later,
  // "'response_format.type' must be 'json_schema' or 'text'" (lmstudio-bug-tracker#169, #189)
  "'response_format.type' must be",
  // llama.cpp (and ik_llama.cpp) servers before json_schema, a 500: 'response_format type must
  // be one of "text" or "json_object", but got: json_schema' (ikawrakow/ik_llama.cpp#778)
  'response_format type must be one of',
  // llama.cpp: 'Either "json_schema" or "grammar" can be specified, but not both' (ggml-org/llama.cpp#11847)
  'or "grammar" can be specified',
  // OpenAI: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."
  "of type 'json_schema' is not supported",
];

/**
 * Phrases followed by the refused field's name:
 * - llama.cpp server, a 500: "Unsupported param: tools" (ggml-org/llama.cpp#10920, #12591);
 * - OpenAI: "Unsupported parameter: 'max_tokens' is not supported with this model. Use
 *   'max_completion_tokens' instead." and "Unsupported value: 'temperature' does not support 0
 *   with this model. Only the default (1) value is supported." (param and code say it too);
 * - Azure OpenAI: "Unrecognized request argument supplied: prompt_cache_key" (zed#52000) and
 *   "… supplied: logprobs" (openai/openai-python#433);
 * - LiteLLM: "UnsupportedParamsError: ollama_chat does not support parameters: ['logprobs'] …"
 *   (BerriAI/litellm#17165);
 * - vLLM before it allowed extra fields (vllm-project/vllm#10463), pydantic's list form:
 *   "[{'type': 'extra_forbidden', 'loc': ('body', 'max_completion_tokens'), 'msg': 'Extra inputs
 *   are not permitted', 'input': 800}]" (1Panel-dev/MaxKB#2912).
 */
const NAME_AFTER = [
  'unsupported param',
  'unsupported value',
  'invalid parameter',
  'unrecognized request argument',
  'does not support parameters',
  'extra_forbidden',
  'unknown parameter',
  'unknown field',
];

/**
 * Phrases preceded by the refused field's name: pydantic's text form, as vLLM and gateways in
 * front of it answer: "1 validation error for ChatCompletionRequest\nlogprobs\n  Extra inputs
 * are not permitted [type=extra_forbidden, …]" (vllm-project/vllm#12864); and "'strict' is not
 * supported"-style texts of other compatibility layers.
 */
const NAME_BEFORE = ['extra inputs are not permitted', 'is not supported', 'are not supported'];

const REFUSING = [
  'unsupported',
  'not supported',
  'unrecognized',
  'not permitted',
  'not allowed',
  'unknown',
  'invalid value',
];

/** A field's name as it appears in a request (last segment of a dotted path first). */
const FIELD_NAMES: Record<string, RefusedField> = {
  max_completion_tokens: 'max_completion_tokens',
  max_tokens: 'max_tokens',
  prompt_cache_key: 'prompt_cache_key',
  logprobs: 'logprobs',
  top_logprobs: 'logprobs',
  temperature: 'temperature',
  strict: 'strict',
  image_url: 'images',
  response_format: 'response_format',
  json_schema: 'response_format',
  json_object: 'response_format',
};

/** Which request feature a provider's refusal names; undefined: none this knows of. */
export function refusedCapability(error: unknown): RefusedField | undefined {
  const api = apiErrorOf(error);
  if (!api || api.status === undefined) return;
  const status = api.status;
  // 401, 403, 429 and most 5xx are about the key, the quota or the server, never a field.
  if (status !== 400 && status !== 404 && status !== 422 && status !== 500) return;
  const text = errorText(api);
  const phrase = (phrases: string[]) => phrases.some((p) => text.includes(p));
  if (phrase(IMAGE_PHRASES)) return 'images';
  if (phrase(SCHEMA_PHRASES)) return 'schema';
  if (phrase(RESPONSE_FORMAT_PHRASES)) return 'response_format';
  // A 404 or 500 names a field only in the words above or llama.cpp's "Unsupported param".
  const general = status === 400 || status === 422;
  // A `param` alone may name a field whose value was wrong ("max_tokens is too large"); it
  // counts only beside words that refuse the field itself.
  if (general && typeof api.param === 'string' && REFUSING.some((w) => text.includes(w))) {
    const named = fieldIn(api.param.toLowerCase());
    if (named) return named;
  }
  for (const trigger of general ? NAME_AFTER : ['unsupported param']) {
    const at = text.indexOf(trigger);
    if (at === -1) continue;
    const named = firstField(text.slice(at + trigger.length, at + trigger.length + AFTER));
    if (named) return named;
  }
  if (!general) return;
  for (const trigger of NAME_BEFORE) {
    const at = text.indexOf(trigger);
    if (at === -1) continue;
    const named = lastField(text.slice(Math.max(0, at - BEFORE), at));
    if (named) return named;
  }
  return;
}

function apiErrorOf(error: unknown): APIError | undefined {
  if (error instanceof APIError) return error;
  // model-call turns the SDK's error into an ExtractionFailure that keeps it as its cause.
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof APIError ? cause : undefined;
}

/**
 * The error's words, lower-cased and bounded. The SDK keeps the body's `error` member: an
 * object (OpenAI, vLLM, llama.cpp, gateways) or, from LM Studio, a bare string. A body with no
 * `error` member (vLLM before 0.9 answered its fields at the top level) reaches the SDK's
 * caller as "400 status code (no body)": nothing to read, so the probe has to find those.
 */
function errorText(api: APIError): string {
  const body: unknown = api.error;
  const parts = [api.message];
  if (typeof body === 'string') parts.push(body);
  else if (body !== undefined && body !== null) parts.push(JSON.stringify(body));
  return parts.join('\n').slice(0, MAX_TEXT).toLowerCase();
}

function fieldIn(token: string): RefusedField | undefined {
  const segments = token.split('.');
  for (let i = segments.length - 1; i >= 0; i -= 1) {
    const named = FIELD_NAMES[segments[i] ?? ''];
    if (named) return named;
  }
  return;
}

function tokens(text: string): string[] {
  return text.split(/[^a-z0-9_.]+/).filter(Boolean);
}

function firstField(text: string): RefusedField | undefined {
  for (const token of tokens(text)) {
    const named = fieldIn(token);
    if (named) return named;
  }
  return;
}

function lastField(text: string): RefusedField | undefined {
  const all = tokens(text);
  for (let i = all.length - 1; i >= 0; i -= 1) {
    const named = fieldIn(all[i] ?? '');
    if (named) return named;
  }
  return;
}

/**
 * The next weaker capabilities after `refused`: the refused feature off, or the structured-output
 * mode one step down. Returns `caps` itself when there is nothing weaker to try, so the caller
 * can tell a retry would only be refused again.
 */
export function downgrade(caps: Capabilities, refused: RefusedField): Capabilities {
  switch (refused) {
    case 'response_format':
      return weakerMode(caps);
    case 'schema': {
      const keywords = caps.schemaKeywords;
      const any =
        keywords.refs ||
        keywords.pattern ||
        keywords.enum ||
        keywords.anyOf ||
        keywords.constraints !== false;
      if (!any) return weakerMode(caps);
      return {
        ...caps,
        schemaKeywords: {
          refs: false,
          pattern: false,
          enum: false,
          anyOf: false,
          constraints: false,
        },
      };
    }
    case 'strict':
      return caps.strict ? { ...caps, strict: false } : weakerMode(caps);
    case 'logprobs':
      return caps.logprobs ? { ...caps, logprobs: false } : caps;
    case 'prompt_cache_key':
      return caps.promptCacheKey ? { ...caps, promptCacheKey: false } : caps;
    case 'temperature':
      return caps.temperature ? { ...caps, temperature: false } : caps;
    case 'images':
      return caps.images ? { ...caps, images: false } : caps;
    case 'max_completion_tokens':
      return caps.maxTokensField === 'max_completion_tokens'
        ? { ...caps, maxTokensField: 'max_tokens' }
        : caps;
    case 'max_tokens':
      // OpenAI's reasoning models refuse the older field and ask for the newer one.
      return caps.maxTokensField === 'max_tokens'
        ? { ...caps, maxTokensField: 'max_completion_tokens' }
        : caps;
  }
}

function weakerMode(caps: Capabilities): Capabilities {
  switch (caps.structuredOutput) {
    case 'json_schema':
      return { ...caps, structuredOutput: 'json_object', strict: false };
    case 'json_object':
      return { ...caps, structuredOutput: 'prompt', strict: false };
    case 'prompt':
      return caps;
  }
}
