import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, type Dialect, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { refusedCapability, type RefusedField } from './refusals.ts';

/**
 * The stand-in's dialect refusals, as the service's client receives them through OpenAI's SDK,
 * name the capability refusals.ts weakens: the tests of the retry-once path then exercise the
 * servers' real words, not words made up to fit the reader.
 */

const model = 'qwen2.5:7b';
const pixel =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const schema = {
  type: 'object',
  properties: { a: { type: 'string' } },
  required: ['a'],
  additionalProperties: false,
};

interface Case {
  dialect: Dialect;
  body: Record<string, unknown>;
  field: RefusedField;
}

const cases: Case[] = [
  {
    dialect: { server: 'vllm', rejectFields: ['logprobs'] },
    body: { logprobs: true },
    field: 'logprobs',
  },
  {
    dialect: { server: 'vllm', rejectFields: ['max_completion_tokens'] },
    body: { max_completion_tokens: 10 },
    field: 'max_completion_tokens',
  },
  {
    dialect: { server: 'vllm', rejectFields: ['prompt_cache_key'] },
    body: { prompt_cache_key: 'k' },
    field: 'prompt_cache_key',
  },
  ...(['openai', 'ollama', 'llamacpp'] as const).map((server): Case => ({
    dialect: { server, structuredOutput: 'json_object_only' },
    body: {
      response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema } },
    },
    field: 'response_format',
  })),
  ...(['vllm', 'llamacpp', 'ollama', 'lmstudio'] as const).map((server): Case => ({
    dialect: { server, images: false },
    body: {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Read this' },
            { type: 'image_url', image_url: { url: pixel } },
          ],
        },
      ],
    },
    field: 'images',
  })),
];

describe('the stand-in’s refusals, read by refusedCapability', () => {
  let standIn: ModelStandIn;
  let openai: OpenAI;
  beforeAll(async () => {
    standIn = await startModelStandIn({ models: [model] });
    openai = new OpenAI({ baseURL: standIn.url, apiKey: 'k', maxRetries: 0 });
  });
  afterAll(() => standIn.close());

  it.each(cases)('$dialect.server $field', async ({ dialect, body, field }) => {
    standIn.setDialect(dialect);
    const error = await openai.chat.completions
      .create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
        ...body,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(refusedCapability(error)).toBe(field);
  });
});
