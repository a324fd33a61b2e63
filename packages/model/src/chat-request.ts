import { createHash } from 'node:crypto';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { JsonSchema } from './json-schema.ts';
import { OPENAI_CAPABILITIES, type Capabilities } from './endpoints/capabilities.ts';
import { responseFormat, withSchemaInstruction } from './endpoints/dialect.ts';

/** The client settings that shape every request body. */
export interface RequestSettings {
  /** null leaves temperature out (models that reject it) */
  temperature: number | null;
  promptCacheKey: boolean;
  maxOutputTokens: number | undefined;
}

export interface ChatCall {
  providerModel: string;
  messages: ChatCompletionMessageParam[];
  /** the strict JSON schema the answer must follow */
  schema: JsonSchema;
  /** asks for token log-probabilities (per-value confidence, docs/citations.md) */
  citations?: boolean | undefined;
}

/**
 * The body of one chat-completions request, built in one place: a standard call sends it, a
 * batch round writes it as a JSONL line, and the pipeline version hashes it for a fixed input,
 * so none of the three can drift from the others. `capabilities` shapes it for the endpoint
 * (endpoints/dialect.ts); OpenAI's, the default, gives the body as it always was, field for
 * field and in the same order, so the pipeline version and batch lines do not change.
 */
export function chatRequest(
  settings: RequestSettings,
  call: ChatCall,
  capabilities: Capabilities = OPENAI_CAPABILITIES,
): ChatCompletionCreateParamsNonStreaming {
  const caps = capabilities;
  const format = responseFormat(call.schema, caps);
  return {
    model: call.providerModel,
    messages: withSchemaInstruction(call.messages, call.schema, caps),
    ...(settings.temperature === null || !caps.temperature
      ? {}
      : { temperature: settings.temperature }),
    ...(format ? { response_format: format } : {}),
    // Routes requests with the same schema to the same prompt cache: they share the prefix
    // (rules, structure guidance, instruction) that prompt.ts puts first.
    ...(settings.promptCacheKey && caps.promptCacheKey
      ? { prompt_cache_key: promptCacheKey(call.schema) }
      : {}),
    ...(settings.maxOutputTokens ? { [caps.maxTokensField]: settings.maxOutputTokens } : {}),
    ...(call.citations && caps.logprobs ? { logprobs: true } : {}),
  };
}

function promptCacheKey(schema: JsonSchema): string {
  return `xt-${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32)}`;
}
