import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { chatRequest, type RequestSettings } from '../chat-request.ts';
import type { JsonSchema } from '../json-schema.ts';
import { LEAST_CAPABILITIES, OPENAI_CAPABILITIES, type Capabilities } from './capabilities.ts';
import { SCHEMA_INSTRUCTION, schemaInstruction } from './dialect.ts';

const settings: RequestSettings = { temperature: 0, promptCacheKey: true, maxOutputTokens: 900 };

const schema: JsonSchema = {
  type: 'object',
  properties: {
    number: { type: 'string', pattern: '^INV-' },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  required: ['number', 'note'],
  additionalProperties: false,
};

const messages: ChatCompletionMessageParam[] = [
  { role: 'system', content: 'Rules.' },
  { role: 'system', content: 'Structure guidance.' },
  { role: 'user', content: 'The source.' },
];

const call = { providerModel: 'm', messages, schema, citations: true };

const with_ = (changes: Partial<Capabilities>): Capabilities => ({
  ...OPENAI_CAPABILITIES,
  ...changes,
});

describe('chatRequest by capabilities', () => {
  it("builds OpenAI's body as it always was, field for field and in order", () => {
    const expected = {
      model: 'm',
      messages,
      temperature: 0,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'extraction', strict: true, schema },
      },
      prompt_cache_key: expect.stringMatching(/^xt-[0-9a-f]{32}$/) as unknown,
      max_completion_tokens: 900,
      logprobs: true,
    };
    const body = chatRequest(settings, call);
    expect(body).toEqual(expected);
    expect(Object.keys(body)).toEqual(Object.keys(expected));
    expect(JSON.stringify(chatRequest(settings, call, OPENAI_CAPABILITIES))).toBe(
      JSON.stringify(body),
    );
    expect(body.messages).toBe(messages);
  });

  it('sends json_schema non-strict with the schema adapted to what the server honours', () => {
    const caps = with_({
      strict: false,
      schemaKeywords: { refs: true, pattern: false, enum: true, anyOf: false },
    });
    const body = chatRequest(settings, call, caps);
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'extraction',
        strict: false,
        schema: {
          type: 'object',
          properties: {
            number: { type: 'string', description: 'Matches the pattern ^INV-.' },
            note: { type: 'string', description: 'May be null.' },
          },
          required: ['number', 'note'],
          additionalProperties: false,
        },
      },
    });
    expect(body.messages).toBe(messages);
  });

  it('asks json_object with the schema in one extra system message after the rules', () => {
    const body = chatRequest(settings, call, with_({ structuredOutput: 'json_object' }));
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages).toEqual([
      messages[0],
      messages[1],
      { role: 'system', content: schemaInstruction(schema) },
      messages[2],
    ]);
  });

  it('sends no response_format in prompt mode, the schema in the prompt', () => {
    const body = chatRequest(settings, call, with_({ structuredOutput: 'prompt' }));
    expect(body).not.toHaveProperty('response_format');
    expect(body.messages).toHaveLength(4);
    expect(body.messages[2]?.content).toContain(SCHEMA_INSTRUCTION);
  });

  it('drops the fields the server does not take', () => {
    const body = chatRequest(settings, call, LEAST_CAPABILITIES);
    expect(body).toMatchObject({ model: 'm', temperature: 0, max_tokens: 900 });
    for (const field of [
      'response_format',
      'max_completion_tokens',
      'logprobs',
      'prompt_cache_key',
    ])
      expect(body).not.toHaveProperty(field);
    const cold = chatRequest(settings, call, with_({ temperature: false }));
    expect(cold).not.toHaveProperty('temperature');
  });

  it('asks logprobs and a cache key only when both the call and the server want them', () => {
    const plain = chatRequest(
      { ...settings, promptCacheKey: false },
      { ...call, citations: false },
    );
    expect(plain).not.toHaveProperty('logprobs');
    expect(plain).not.toHaveProperty('prompt_cache_key');
    const refused = chatRequest(settings, call, with_({ logprobs: false, promptCacheKey: false }));
    expect(refused).not.toHaveProperty('logprobs');
    expect(refused).not.toHaveProperty('prompt_cache_key');
  });
});

describe('schemaInstruction', () => {
  it('writes the schema in a fenced block after the instruction', () => {
    const text = schemaInstruction({ type: 'object' });
    expect(text.startsWith(SCHEMA_INSTRUCTION)).toBe(true);
    expect(text).toContain('```json\n{\n  "type": "object"\n}\n```');
  });
});
