import type { Dialect } from './types.ts';

/**
 * The ways the servers people run behave, as stand-in dialects (docs/models.md, "The servers"):
 * the end-to-end dialect tests and the models benchmark run the same set, so a figure in
 * docs/benchmarks.md is one the tests hold.
 */
export const POPULAR_SERVERS = {
  // Ollama at its default window, keeping the end of a longer prompt without an error
  'ollama-4k': { server: 'ollama', contextTokens: 4_096, overflow: 'truncate' },
  // json_schema refused with a 400, json_object taken (a gateway, an older server)
  'json-object-only': { server: 'vllm', structuredOutput: 'json_object_only' },
  // response_format ignored, the JSON in a fence after a sentence (vLLM without guided decoding)
  'prose-fence': { server: 'vllm', structuredOutput: 'ignored' },
  // fields it does not know refused (older vLLM's pydantic models)
  'strict-fields': {
    server: 'vllm',
    rejectFields: ['logprobs', 'prompt_cache_key', 'max_completion_tokens'],
    logprobs: false,
  },
  // a model without vision (most small local models)
  'text-only': { server: 'llamacpp', images: false },
  // all at once, as a small local model on llama.cpp is
  '4k-text-only-json-object': {
    server: 'llamacpp',
    contextTokens: 4_096,
    structuredOutput: 'json_object_only',
    images: false,
  },
} as const satisfies Record<string, Dialect>;
