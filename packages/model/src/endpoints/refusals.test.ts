import { ExtractionFailure } from '@xt/contract';
import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { LEAST_CAPABILITIES, OPENAI_CAPABILITIES } from './capabilities.ts';
import { downgrade, refusedCapability, type RefusedField } from './refusals.ts';

/** An error as the SDK builds it from a response: status, parsed body, no message of its own. */
const refusal = (status: number, body: object) =>
  APIError.generate(status, body, undefined, new Headers());

const openAiError = (message: string, param: string | null, code: string | null) => ({
  error: { message, type: 'invalid_request_error', param, code },
});

const cases: [string, number, object, RefusedField][] = [
  [
    'OpenAI refusing max_tokens for a reasoning model',
    400,
    openAiError(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    ),
    'max_tokens',
  ],
  [
    'OpenAI refusing a temperature',
    400,
    openAiError(
      "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
      'temperature',
      'unsupported_value',
    ),
    'temperature',
  ],
  [
    'OpenAI refusing json_schema for an older model',
    400,
    openAiError(
      "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
      'response_format',
      null,
    ),
    'response_format',
  ],
  [
    'Azure OpenAI refusing prompt_cache_key',
    400,
    openAiError('Unrecognized request argument supplied: prompt_cache_key', null, null),
    'prompt_cache_key',
  ],
  [
    'Azure OpenAI refusing logprobs',
    400,
    openAiError('Unrecognized request argument supplied: logprobs', null, null),
    'logprobs',
  ],
  [
    'vLLM refusing max_completion_tokens (pydantic list form)',
    400,
    {
      error: {
        message:
          "[{'type': 'extra_forbidden', 'loc': ('body', 'max_completion_tokens'), 'msg': 'Extra inputs are not permitted', 'input': 800}]",
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    },
    'max_completion_tokens',
  ],
  [
    'vLLM behind a gateway refusing logprobs (pydantic text form)',
    400,
    {
      error: {
        message:
          '1 validation error for ChatCompletionRequest\nlogprobs\n  Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]\n    For further information visit https://errors.pydantic.dev/2.10/v/extra_forbidden',
        type: 'upstream_error',
        param: '400',
      },
    },
    'logprobs',
  ],
  [
    "vLLM's xgrammar refusing the schema's keywords",
    400,
    {
      error: {
        message: 'The provided JSON schema contains features not supported by xgrammar.',
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    },
    'schema',
  ],
  [
    'vLLM serving a text-only model an image',
    400,
    {
      error: {
        message: 'Qwen2.5-7B-Instruct is not a multimodal model',
        type: 'BadRequestError',
        code: 400,
      },
    },
    'images',
  ],
  [
    'llama.cpp without a projector given an image (a 500)',
    500,
    {
      error: {
        code: 500,
        message:
          'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj',
        type: 'server_error',
      },
    },
    'images',
  ],
  [
    'llama.cpp before json_schema (a 500)',
    500,
    {
      error: {
        code: 500,
        message:
          'response_format type must be one of "text" or "json_object", but got: json_schema',
        type: 'server_error',
      },
    },
    'response_format',
  ],
  [
    "llama.cpp's unsupported param (a 500)",
    500,
    { error: { code: 500, message: 'Unsupported param: logprobs', type: 'server_error' } },
    'logprobs',
  ],
  [
    'Ollama with a model missing its vision projector (a 500)',
    500,
    {
      error: {
        message:
          'Failed to create new sequence: failed to process inputs: this model is missing data required for image input',
        type: 'api_error',
      },
    },
    'images',
  ],
  [
    'LM Studio refusing json_object (the error a bare string)',
    400,
    { error: "'response_format.type' must be 'json_schema' or 'text'" },
    'response_format',
  ],
  [
    'LiteLLM refusing logprobs',
    400,
    {
      error: {
        message:
          "litellm.UnsupportedParamsError: ollama_chat does not support parameters: ['logprobs'], for model=llama3.1:70b. To drop these, set `litellm.drop_params=True`",
        type: null,
        param: null,
        code: '400',
      },
    },
    'logprobs',
  ],
  [
    'OpenRouter with no image-capable endpoint (a 404)',
    404,
    { error: { message: 'No endpoints found that support image input', code: 404 } },
    'images',
  ],
  [
    'a provider refusing strict inside json_schema',
    400,
    openAiError(
      "Unsupported parameter: 'response_format.json_schema.strict' is not supported.",
      null,
      null,
    ),
    'strict',
  ],
  [
    'a provider naming the refused mode by param',
    400,
    {
      error: {
        code: 'InvalidParameter',
        message:
          'The parameter `response_format.type` specified in the request are not valid: invalid value: `json_schema`, supported values are: `json_object` and `text`.',
        param: 'response_format.type',
        type: 'BadRequest',
      },
    },
    'response_format',
  ],
];

describe('refusedCapability', () => {
  it.each(cases)('reads %s', (_name, status, body, field) => {
    expect(refusedCapability(refusal(status, body))).toBe(field);
  });

  it('reads the SDK error kept as the cause of a failure', () => {
    const cause = refusal(
      400,
      openAiError('Unrecognized request argument supplied: logprobs', null, null),
    );
    const failure = new ExtractionFailure('MODEL_UNAVAILABLE', 'The provider refused.', { cause });
    expect(refusedCapability(failure)).toBe('logprobs');
  });

  it('names nothing for errors that are not about a request feature', () => {
    const none = [
      refusal(401, openAiError('Incorrect API key provided', null, 'invalid_api_key')),
      refusal(429, openAiError('Rate limit reached for requests', null, 'rate_limit_exceeded')),
      refusal(
        400,
        openAiError(
          'max_tokens is too large: 20000. This model supports at most 16384 completion tokens.',
          'max_tokens',
          'invalid_value',
        ),
      ),
      refusal(
        400,
        openAiError(
          "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
          'messages',
          'context_length_exceeded',
        ),
      ),
      // A 500 that mentions a field in passing is the server's trouble, not a refusal.
      refusal(500, { error: { message: 'logprobs computation failed: CUDA out of memory' } }),
      // vLLM before 0.9 answered its error at the top level; the SDK keeps none of it.
      refusal(400, {
        object: 'error',
        message: "[{'type': 'extra_forbidden', 'loc': ('body', 'logprobs')}]",
        type: 'BadRequestError',
        param: null,
        code: 400,
      }),
      new Error('Unsupported param: logprobs'),
      undefined,
    ];
    for (const error of none) expect(refusedCapability(error)).toBeUndefined();
  });

  it('reads a long hostile body in bounded time', () => {
    const message = `${'is not supported '.repeat(50_000)}`;
    const started = performance.now();
    expect(refusedCapability(refusal(400, { error: { message } }))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('downgrade', () => {
  it('takes the structured-output mode one step down at a time', () => {
    const objectMode = downgrade(OPENAI_CAPABILITIES, 'response_format');
    expect(objectMode).toMatchObject({ structuredOutput: 'json_object', strict: false });
    const promptMode = downgrade(objectMode, 'response_format');
    expect(promptMode.structuredOutput).toBe('prompt');
    expect(downgrade(promptMode, 'response_format')).toBe(promptMode);
  });

  it('drops strict before the mode', () => {
    const loose = downgrade(OPENAI_CAPABILITIES, 'strict');
    expect(loose).toMatchObject({ structuredOutput: 'json_schema', strict: false });
    expect(downgrade(loose, 'strict').structuredOutput).toBe('json_object');
  });

  it('rewrites every keyword before leaving json_schema for a refused schema', () => {
    const plain = downgrade(OPENAI_CAPABILITIES, 'schema');
    expect(plain.structuredOutput).toBe('json_schema');
    expect(plain.schemaKeywords).toEqual({
      refs: false,
      pattern: false,
      enum: false,
      anyOf: false,
      constraints: false,
    });
    expect(downgrade(plain, 'schema').structuredOutput).toBe('json_object');
  });

  it('turns off the refused field and nothing else', () => {
    const turnedOff: [RefusedField, Partial<typeof OPENAI_CAPABILITIES>][] = [
      ['logprobs', { logprobs: false }],
      ['prompt_cache_key', { promptCacheKey: false }],
      ['temperature', { temperature: false }],
      ['images', { images: false }],
      ['max_completion_tokens', { maxTokensField: 'max_tokens' }],
    ];
    for (const [field, change] of turnedOff)
      expect(downgrade(OPENAI_CAPABILITIES, field)).toEqual({ ...OPENAI_CAPABILITIES, ...change });
    expect(downgrade(LEAST_CAPABILITIES, 'max_tokens').maxTokensField).toBe(
      'max_completion_tokens',
    );
  });

  it('returns the same capabilities when there is nothing weaker', () => {
    for (const field of [
      'logprobs',
      'prompt_cache_key',
      'images',
      'max_completion_tokens',
    ] as const)
      expect(downgrade(LEAST_CAPABILITIES, field)).toBe(LEAST_CAPABILITIES);
  });
});
