import { createHash } from 'node:crypto';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { JsonSchema } from './json-schema.ts';

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
 * so none of the three can drift from the others.
 */
export function chatRequest(
  settings: RequestSettings,
  call: ChatCall,
): ChatCompletionCreateParamsNonStreaming {
  return {
    model: call.providerModel,
    messages: call.messages,
    ...(settings.temperature === null ? {} : { temperature: settings.temperature }),
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'extraction', strict: true, schema: call.schema },
    },
    // Routes requests with the same schema to the same prompt cache: they share the prefix
    // (rules, structure guidance, instruction) that prompt.ts puts first.
    ...(settings.promptCacheKey ? { prompt_cache_key: promptCacheKey(call.schema) } : {}),
    ...(settings.maxOutputTokens ? { max_completion_tokens: settings.maxOutputTokens } : {}),
    ...(call.citations ? { logprobs: true } : {}),
  };
}

function promptCacheKey(schema: JsonSchema): string {
  return `xt-${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32)}`;
}
