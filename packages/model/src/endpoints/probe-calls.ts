import type OpenAI from 'openai';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { withoutTrailingSlash, type Http } from './http.ts';
import { ProbeError, safeEndpoint } from './probe-error.ts';

/*
 * One tiny probe chat call (issue #36 item 2), through the service's OpenAI client when given
 * (so Azure's deployments and api-version apply) or plain fetch, marked `x-xt-probe: 1` so it
 * is never charged and servers' logs can tell it apart. A 401 or 404, no answer or no answer
 * in time end the probe with a ProbeError; any other status is a refusal to read.
 */

export const PROBE_HEADER = { 'x-xt-probe': '1' } as const;

export interface ChatAnswer {
  status: number;
  /** the parsed body (a completion, or the server's error) */
  json: unknown;
  /** the error's words, lower-cased, to find what it names */
  words: string;
}

export type ChatCall = (body: Record<string, unknown>) => Promise<ChatAnswer>;

/** llama.cpp answers 503 while it loads the model: waited for, a few times, never charged. */
const LOADING_RETRIES = 8;
const LOADING_WAIT_MS = 250;

export function createChatCall(config: {
  baseURL: string;
  http: Http;
  openai?: OpenAI;
  timeoutMs: number;
  signal?: AbortSignal;
}): ChatCall {
  const endpoint = safeEndpoint(config.baseURL);
  const once = config.openai
    ? viaClient(config.openai, config.timeoutMs, config.signal, endpoint)
    : viaFetch(config.baseURL, config.http, config.timeoutMs, endpoint);
  return async (body) => {
    let answer = await once(body);
    for (let i = 0; i < LOADING_RETRIES && answer.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, LOADING_WAIT_MS * (i + 1)));
      answer = await once(body);
    }
    if (answer.status === 401 || answer.status === 403)
      throw new ProbeError('unauthorized', `${endpoint} refused the API key.`);
    if (answer.status === 404)
      throw new ProbeError(
        'no-model',
        `${endpoint} does not serve the model ${String(body.model)}.`,
      );
    return answer;
  };
}

function viaFetch(baseURL: string, http: Http, timeoutMs: number, endpoint: string) {
  const url = `${withoutTrailingSlash(baseURL)}/chat/completions`;
  return async (body: Record<string, unknown>): Promise<ChatAnswer> => {
    const result = await http('POST', url, { body, timeoutMs, headers: PROBE_HEADER });
    if ('failure' in result) {
      if (result.failure === 'aborted') throw result.cause;
      if (result.failure === 'timeout')
        throw new ProbeError('timeout', `${endpoint} did not answer a probe in ${timeoutMs} ms.`);
      throw new ProbeError('unreachable', `${endpoint} did not answer.`, { cause: result.cause });
    }
    return { status: result.status, json: result.json, words: result.text.toLowerCase() };
  };
}

function viaClient(
  openai: OpenAI,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  endpoint: string,
) {
  return async (body: Record<string, unknown>): Promise<ChatAnswer> => {
    try {
      const json = await openai.chat.completions.create(
        body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        { headers: PROBE_HEADER, timeout: timeoutMs, maxRetries: 0, ...(signal ? { signal } : {}) },
      );
      return { status: 200, json, words: '' };
    } catch (error) {
      if (error instanceof APIUserAbortError) throw error;
      if (error instanceof APIConnectionTimeoutError)
        throw new ProbeError('timeout', `${endpoint} did not answer a probe in ${timeoutMs} ms.`);
      if (error instanceof APIConnectionError)
        throw new ProbeError('unreachable', `${endpoint} did not answer.`, { cause: error });
      if (error instanceof APIError && typeof error.status === 'number') {
        const words = `${JSON.stringify(error.error ?? null)} ${error.message}`.toLowerCase();
        return { status: error.status, json: error.error, words };
      }
      throw error;
    }
  };
}
