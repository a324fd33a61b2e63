import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBatchInterface, type BatchInterface, type BatchOptions } from './batch.ts';
import { asksForQuotes, shapeAnswer } from './cited-answer.ts';
import { oracleAnswer } from './oracle/index.ts';
import { createPromptCache } from './prompt-cache.ts';
import { recordRequest } from './record.ts';
import { sampleValue } from './sample-value.ts';
import type { Behaviour, RecordedImage, RecordedRequest, Usage } from './types.ts';

export interface ModelStandInOptions {
  port?: number;
  host?: string;
  /** when set, requests must carry `Authorization: Bearer <apiKey>` or get 401 */
  apiKey?: string;
  /** the default behaviour once the one-shot queue is empty */
  defaultBehaviour?: Behaviour;
  /** model ids listed by `GET /v1/models` */
  models?: string[];
  /** OpenAI's Files and Batches interface (batch.ts): on by default, completing at once */
  batch?: BatchOptions;
}

export interface ModelStandIn {
  /** base URL ending in `/v1`, ready for `OPENAI_BASE_URL` */
  url: string;
  /** every chat-completions request received directly, in order (batch lines: `batch.lines`) */
  requests: RecordedRequest[];
  /** the Files and Batches interface: its calls, the lines it answered, its delay */
  batch: BatchInterface;
  /** queue one-shot behaviours for the next requests (in order) */
  behave(next: Behaviour | Behaviour[]): void;
  /** how every request is answered once the one-shot queue is empty (a provider's mood) */
  setDefaultBehaviour(next: Behaviour): void;
  /** forget recorded requests, queued behaviours and the prompt cache */
  reset(): void;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible server for tests: answers chat completions with a value valid for the
 * request's json_schema, records what reached it, and misbehaves on request. A prompt that
 * starts as an earlier one did reports the shared start as cached tokens (prompt-cache.ts).
 */
export async function startModelStandIn(options: ModelStandInOptions = {}): Promise<ModelStandIn> {
  const requests: RecordedRequest[] = [];
  const queue: Behaviour[] = [];
  let defaultBehaviour = options.defaultBehaviour ?? {};
  const models = options.models ?? ['gpt-4.1', 'gpt-4.1-mini'];
  let counter = 0;
  const batch = createBatchInterface(
    (recorded, raw) => answerChat(recorded, raw, next(recorded)),
    options.batch ?? {},
  );
  const promptCache = createPromptCache();
  /** The behaviour for this request: the next queued one, else the default, as it picks. */
  function next(recorded: RecordedRequest): Behaviour {
    const behaviour = queue.shift() ?? defaultBehaviour;
    return behaviour.pick?.(recorded) ?? behaviour;
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, String(error), 'server_error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname;
    const rawBytes = await readBody(req);
    const rawBody = rawBytes.toString('utf8');
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendError(
        res,
        401,
        'Incorrect API key provided.',
        'invalid_request_error',
        'invalid_api_key',
      );
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'stand-in' })),
      });
      return;
    }
    const batchAnswer = await batch.handle(
      req.method ?? 'GET',
      path,
      req.headers,
      rawBytes,
      url.searchParams,
    );
    if (batchAnswer) {
      if (batchAnswer.raw) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(batchAnswer.raw);
      } else sendJson(res, batchAnswer.status, batchAnswer.body);
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      sendError(res, 404, `Unknown route ${req.method ?? ''} ${path}`, 'invalid_request_error');
      return;
    }
    const recorded = recordRequest(req.method, path, req.headers, rawBody);
    requests.push(recorded);
    const behaviour = next(recorded);

    if (behaviour.hang) return; // the socket stays open until the client or close() ends it
    if (behaviour.delayMs) await sleep(behaviour.delayMs);
    if (behaviour.gate) await behaviour.gate(recorded);
    if (res.destroyed) return;
    if (behaviour.status !== undefined)
      for (const [name, value] of Object.entries(behaviour.headers ?? {}))
        res.setHeader(name, value);
    const answered = await answerChat(recorded, rawBody, behaviour);
    if (res.destroyed || !answered) return;
    sendJson(res, answered.status, answered.body);
  }

  /**
   * The answer to one chat-completions body under `behaviour`, for a direct call and for a
   * batch's line alike; null for a behaviour that never answers.
   */
  async function answerChat(
    recorded: RecordedRequest,
    rawBody: string,
    behaviour: Behaviour,
  ): Promise<{ status: number; body: unknown } | null> {
    if (behaviour.hang) return null;
    if (behaviour.status !== undefined)
      return {
        status: behaviour.status,
        body:
          behaviour.body ??
          errorBody(`Stand-in error ${behaviour.status}`, errorType(behaviour.status)),
      };
    if (recorded.body === undefined)
      return {
        status: 400,
        body: errorBody('The body is not valid JSON.', 'invalid_request_error'),
      };
    if ((recorded.body as { stream?: unknown }).stream === true)
      return {
        status: 400,
        body: errorBody('The stand-in does not stream.', 'invalid_request_error'),
      };
    counter += 1;
    const id = `chatcmpl-standin-${counter}`;
    const answer = behaviour.oracle ? await oracleBehaviour(recorded, behaviour) : behaviour;
    const cached = promptCache.cachedTokens(recorded.body);
    return { status: 200, body: completion(recorded, answer, id, rawBody.length, cached) };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/v1`,
    requests,
    batch,
    behave(next) {
      queue.push(...(Array.isArray(next) ? next : [next]));
    },
    setDefaultBehaviour(next) {
      defaultBehaviour = next;
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
      batch.reset();
      promptCache.clear();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // hanging requests would keep close() waiting forever
        server.closeAllConnections();
      });
    },
  };
}

/**
 * GPT-4.1's output cap in tokens: the oracle stops there as the real model would, so answers
 * too long for one call show up as truncation instead of passing unseen.
 */
const ORACLE_OUTPUT_CAP = 32_768;

async function oracleBehaviour(request: RecordedRequest, behaviour: Behaviour): Promise<Behaviour> {
  // With citations the oracle fills the output part; quotes, continuations and the output
  // limit are then applied to its answer as to any other (see completion()).
  const schema = request.schema as { properties?: { output?: unknown } } | undefined;
  const target = asksForQuotes(schema) ? schema?.properties?.output : schema;
  const output = await oracleAnswer(request.body, target);
  const body = (request.body ?? {}) as { max_completion_tokens?: unknown; max_tokens?: unknown };
  const requested = body.max_completion_tokens ?? body.max_tokens;
  const cap =
    typeof requested === 'number' ? Math.min(requested, ORACLE_OUTPUT_CAP) : ORACLE_OUTPUT_CAP;
  return { ...behaviour, output, outputLimit: Math.min(behaviour.outputLimit ?? cap, cap) };
}

function completion(
  request: RecordedRequest,
  behaviour: Behaviour,
  id: string,
  bodySize: number,
  cachedTokens: number,
) {
  let content: string | null = null;
  let refusal: string | null = null;
  if (behaviour.refuse !== undefined) refusal = behaviour.refuse;
  else if (behaviour.content !== undefined) content = behaviour.content;
  else content = JSON.stringify(shapeAnswer(fullOutput(request, behaviour), request, behaviour));

  let finishReason = behaviour.finishReason ?? 'stop';
  // A model stops writing at its output limit, wherever it is in the JSON.
  if (content !== null && behaviour.outputLimit !== undefined) {
    if (Math.ceil(content.length / CHARS_PER_TOKEN) > behaviour.outputLimit) {
      content = content.slice(0, behaviour.outputLimit * CHARS_PER_TOKEN);
      finishReason = 'length';
    }
  }
  const wantsLogprobs = (request.body as { logprobs?: unknown } | undefined)?.logprobs === true;
  const logprobs =
    wantsLogprobs && behaviour.logprobs !== false && content !== null
      ? { content: tokenLogprobs(content, behaviour.tokenLogprob ?? -0.01), refusal: null }
      : null;

  const usage = estimateUsage(request, bodySize, content ?? refusal ?? '');
  if (cachedTokens > 0)
    usage.prompt_tokens_details = { cached_tokens: Math.min(cachedTokens, usage.prompt_tokens) };
  if (behaviour.usage) {
    // A test's own figures stand alone: no cached part unless it gives one.
    delete usage.prompt_tokens_details;
    Object.assign(usage, behaviour.usage);
    if (behaviour.usage.total_tokens === undefined)
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  }
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? 'unknown',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal, annotations: [] },
        logprobs,
        finish_reason: finishReason,
      },
    ],
    usage,
    system_fingerprint: 'fp_stand_in',
  };
}

/** The whole answer the behaviour gives, before it is shaped for the request. */
function fullOutput(request: RecordedRequest, behaviour: Behaviour): unknown {
  if ('output' in behaviour) return behaviour.output;
  if (behaviour.respond) return behaviour.respond(request);
  const schema = request.schema as { properties?: { output?: unknown } } | undefined;
  return sampleValue(asksForQuotes(schema) ? schema?.properties?.output : schema, schema);
}

/** The stand-in's tokens: short runs of letters or digits, whitespace runs, single symbols. */
function tokenLogprobs(content: string, logprob: number) {
  return (content.match(/[A-Za-z]{1,6}|\d{1,3}|\s+|[^A-Za-z\d\s]/gu) ?? []).map((token) => ({
    token,
    logprob,
    bytes: [...Buffer.from(token, 'utf8')],
    top_logprobs: [],
  }));
}

const CHARS_PER_TOKEN = 4;

/**
 * Roughly what OpenAI would bill: 4 characters of request text per token, and for images the
 * gpt-4.1 tile formula when the header gave a size (765, a 1024x1024 image, when it did not).
 */
function estimateUsage(request: RecordedRequest, bodySize: number, answer: string): Usage {
  const imageChars = request.images.reduce(
    (sum, image) => sum + Math.ceil((image.bytes * 4) / 3),
    0,
  );
  const imageTokens = request.images.reduce((sum, image) => sum + imageTokenCost(image), 0);
  const prompt = Math.ceil(Math.max(0, bodySize - imageChars) / 4) + imageTokens;
  const completionTokens = Math.max(1, Math.ceil(answer.length / CHARS_PER_TOKEN));
  return {
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
  };
}

function imageTokenCost(image: RecordedImage): number {
  if (image.detail === 'low') return 85;
  if (!image.width || !image.height) return 765;
  let w = image.width;
  let h = image.height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorten = Math.min(1, 768 / Math.min(w, h));
  return 85 + 170 * Math.ceil((w * shorten) / 512) * Math.ceil((h * shorten) / 512);
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function errorBody(message: string, type: string, code?: string) {
  return { error: { message, type, param: null, code: code ?? null } };
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code?: string,
): void {
  sendJson(res, status, errorBody(message, type, code));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_standin_${Date.now()}`,
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
