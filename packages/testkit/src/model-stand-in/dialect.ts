import { CHARS_PER_TOKEN } from './completion.ts';
import type { Dialect, RecordedRequest, ServerKind } from './types.ts';

/*
 * The refusals of servers that speak less than OpenAI's dialect (issue #36), with the status,
 * envelope and words each real server answers, so the service's reading of a refusal is tested
 * against what it will really meet.
 */

export interface Refusal {
  status: number;
  body: unknown;
}

/**
 * The error envelope each server uses: vLLM `{error: {message, type: 'BadRequestError', param,
 * code}}` (before 0.9 the same fields sat at the top level, vllm#10463, which OpenAI's SDK
 * reads as "no body"); llama.cpp `{error: {code, message, type}}`; LM Studio a bare
 * `{error: "message"}` (receipt-ocr#20); Ollama's /v1 and OpenAI `{error: {message, type,
 * param, code}}`.
 */
export function errorFor(
  server: ServerKind | undefined,
  status: number,
  message: string,
  type = 'invalid_request_error',
  param: string | null = null,
): unknown {
  switch (server) {
    case 'vllm': {
      const kind = status === 404 ? 'NotFoundError' : 'BadRequestError';
      return { error: { message, type: kind, param, code: status } };
    }
    case 'llamacpp':
      return { error: { code: status, message, type } };
    case 'lmstudio':
      return { error: message };
    default:
      return { error: { message, type, param, code: null } };
  }
}

/** llama.cpp's answer while the model loads (tools/server: `ERROR_TYPE_UNAVAILABLE`). */
export const LOADING_BODY = {
  error: { code: 503, message: 'Loading model', type: 'unavailable_error' },
};

/** The prompt's tokens as the stand-in counts them: 4 characters of request body each. */
export function promptTokens(textChars: number): number {
  return Math.ceil(textChars / CHARS_PER_TOKEN);
}

/** The request body's characters without the images' base64, which usage counts apart. */
export function textChars(request: RecordedRequest, bodyChars: number): number {
  const imageChars = request.images.reduce((sum, i) => sum + Math.ceil((i.bytes * 4) / 3), 0);
  return Math.max(0, bodyChars - imageChars);
}

/** The refusal this request gets under the dialect, or undefined when it is taken. */
export function refusalUnder(
  dialect: Dialect,
  request: RecordedRequest,
  bodyChars: number,
  models: string[],
): Refusal | undefined {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const server = dialect.server;
  const model = request.model ?? '';
  // vLLM and Ollama serve only the models they have; llama.cpp answers whatever name is sent
  if (server === 'vllm' && !models.includes(model))
    return { status: 404, body: errorFor(server, 404, `The model \`${model}\` does not exist.`) };
  if (server === 'ollama' && !models.some((m) => m === model || m === `${model}:latest`)) {
    const message = `model "${model}" not found, try pulling it first`;
    return { status: 404, body: errorFor(server, 404, message, 'api_error') };
  }
  const rejected = (dialect.rejectFields ?? []).filter((field) => field in body);
  if (rejected.length > 0) {
    // pydantic's `extra="forbid"` lists every extra field, each with its input as Python repr
    const errors = rejected.map(
      (field) =>
        `{'type': 'extra_forbidden', 'loc': ('body', '${field}'), 'msg': 'Extra inputs are not permitted', 'input': ${pythonRepr(body[field])}}`,
    );
    return { status: 400, body: errorFor(server, 400, `[${errors.join(', ')}]`) };
  }
  const format = (body.response_format as { type?: unknown } | undefined)?.type;
  if (dialect.structuredOutput === 'json_object_only' && format === 'json_schema')
    return jsonSchemaRefusal(server);
  if (dialect.images === false && request.images.length > 0) return imageRefusal(server, request);
  const limit = dialect.contextTokens;
  const prompt = promptTokens(bodyChars);
  if (limit !== undefined && dialect.overflow === 'error') {
    const completion = requestedCompletion(body);
    if (server === 'llamacpp' && prompt > limit) {
      // llama.cpp without context shift refuses the prompt alone, naming both counts
      const message = 'the request exceeds the available context size, try increasing it';
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message,
            type: 'exceed_context_size_error',
            n_prompt_tokens: prompt,
            n_ctx: limit,
          },
        },
      };
    }
    if (server !== 'llamacpp' && prompt + completion > limit) {
      // vLLM counts the completion asked for too (vllm#20409, llama-stack discussion #981)
      const message = `This model's maximum context length is ${limit} tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`;
      return { status: 400, body: errorFor(server, 400, message) };
    }
  }
  return undefined;
}

/**
 * `json_schema` refused where only `json_object` is taken. llama.cpp servers before json_schema
 * answered a 500 (ik_llama.cpp#778); OpenAI's JSON-mode models a 400 naming the parameter.
 * Groq ("'response_format.type' : value is not one of the allowed values") and DeepSeek ("This
 * response_format type is unavailable now", llm-exe#662) say it in words of their own.
 */
function jsonSchemaRefusal(server: ServerKind | undefined): Refusal {
  if (server === 'llamacpp') {
    const message =
      'response_format type must be one of "text" or "json_object", but got: json_schema';
    return { status: 500, body: errorFor(server, 500, message, 'server_error') };
  }
  const message =
    "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.";
  return {
    status: 400,
    body: errorFor(server, 400, message, 'invalid_request_error', 'response_format'),
  };
}

/**
 * A text-only model given an image part. vLLM: "<model> is not a multimodal model None"
 * (dots.ocr#61); llama.cpp without --mmproj answers it as a 500 (llama.cpp#15377); Ollama's
 * capability check says the model "does not support vision" (server/images.go
 * errCapabilities + errCapabilityVision); OpenAI's older text models refused the part type.
 */
function imageRefusal(server: ServerKind | undefined, request: RecordedRequest): Refusal {
  const model = request.model ?? 'model';
  switch (server) {
    case 'vllm':
      return {
        status: 400,
        body: errorFor(server, 400, `${model} is not a multimodal model None`),
      };
    case 'llamacpp': {
      const message =
        'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj';
      return { status: 500, body: errorFor(server, 500, message, 'server_error') };
    }
    case 'ollama':
      return { status: 400, body: errorFor(server, 400, `"${model}" does not support vision`) };
    case 'lmstudio':
      return { status: 400, body: errorFor(server, 400, 'Model does not support images.') };
    default:
      return {
        status: 400,
        body: errorFor(
          server,
          400,
          'Invalid content type. image_url is only supported by certain models.',
        ),
      };
  }
}

/** The completion tokens the request asks room for (none said: none counted). */
export function requestedCompletion(body: Record<string, unknown>): number {
  const value = body.max_completion_tokens ?? body.max_tokens;
  return typeof value === 'number' ? value : 0;
}

function pythonRepr(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return `'${value}'`;
  return JSON.stringify(value);
}
