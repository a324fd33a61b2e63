import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBatchInterface, type BatchInterface, type BatchOptions } from './batch.ts';
import { completion, oracleBehaviour } from './completion.ts';
import { createPromptCache } from './prompt-cache.ts';
import { recordRequest } from './record.ts';
import { LOADING_BODY, refusalUnder, textChars } from './dialect.ts';
import { followedSchema, heldToSchema, keptRequest, restyle } from './dialect-answer.ts';
import { serverInfo } from './server-info.ts';
import { createSlots } from './slots.ts';
import type { Behaviour, Dialect, RecordedRequest, StandInStats } from './types.ts';

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
  /** how much of OpenAI's dialect it speaks (types.ts `Dialect`); default all of it */
  dialect?: Dialect;
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
  /** requests sent with `x-xt-probe: 1` (capability probes), apart from `requests` */
  probes: RecordedRequest[];
  /** the load the server saw: most worked and queued at once, requests abandoned */
  stats: StandInStats;
  /** speak this dialect from the next request on (loading starts over) */
  setDialect(next: Dialect): void;
  /** forget recorded requests and probes, queued behaviours, the prompt cache and stats */
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
    return pick(queue.shift() ?? defaultBehaviour, recorded);
  }
  function pick(behaviour: Behaviour, recorded: RecordedRequest): Behaviour {
    return behaviour.pick?.(recorded) ?? behaviour;
  }
  const probes: RecordedRequest[] = [];
  let dialect: Dialect = options.dialect ?? {};
  let loadingLeft = dialect.loading ?? 0;
  const slots = createSlots(dialect.slots);
  /** the models chat requests have used, which Ollama lists as loaded */
  const loaded = new Set<string>();

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
    // only Ollama's /api/show reads a body; uploads are not parsed twice
    const infoBody = path === '/api/show' ? parseJson(rawBody) : undefined;
    const info = serverInfo(req.method ?? 'GET', path, infoBody, {
      dialect,
      models,
      loaded,
    });
    if (info) {
      sendJson(res, info.status, info.body);
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
    // Capability probes are answered like any call but kept apart, and leave the one-shot
    // queue to the calls a test is about.
    const probe = req.headers['x-xt-probe'] === '1';
    (probe ? probes : requests).push(recorded);
    if (loadingLeft > 0) {
      loadingLeft -= 1;
      sendJson(res, 503, LOADING_BODY);
      return;
    }
    const chars = textChars(recorded, rawBody.length);
    const refusal = refusalUnder(dialect, recorded, chars, models);
    if (refusal) {
      sendJson(res, refusal.status, refusal.body);
      return;
    }
    if (recorded.model) loaded.add(recorded.model);
    const behaviour = probe ? pick(defaultBehaviour, recorded) : next(recorded);
    if (!(await slots.enter(res))) return;

    if (behaviour.hang) return; // the socket stays open until the client or close() ends it
    if (behaviour.delayMs) await sleep(behaviour.delayMs);
    if (behaviour.gate) await behaviour.gate(recorded);
    if (res.destroyed) return;
    if (behaviour.status !== undefined)
      for (const [name, value] of Object.entries(behaviour.headers ?? {}))
        res.setHeader(name, value);
    const kept = keptRequest(dialect, recorded, chars);
    const bodySize = rawBody.length - (chars - kept.textChars);
    const answered = await answerChat(kept.request, rawBody, behaviour, bodySize);
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
    bodySize = rawBody.length,
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
    // the model follows the schema it is held to, else the one its prompt shows (if any)
    const view = followedSchema(dialect, recorded);
    const seen = { ...recorded, schema: view.schema };
    const told = dialect.logprobs === false ? { ...behaviour, logprobs: false } : behaviour;
    const read = told.oracle ? await oracleBehaviour(seen, told) : told;
    const answer =
      read !== told && view.enforced && 'output' in read
        ? { ...read, output: heldToSchema(view.schema, read.output) }
        : read;
    const cached = promptCache.cachedTokens(recorded.body);
    const body = completion(seen, answer, id, bodySize, cached);
    if (answer.content === undefined && answer.refuse === undefined) restyle(body, view);
    return { status: 200, body };
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
    probes,
    stats: slots.stats,
    batch,
    setDialect(next) {
      dialect = next;
      loadingLeft = next.loading ?? 0;
      slots.setLimit(next.slots);
    },
    behave(next) {
      queue.push(...(Array.isArray(next) ? next : [next]));
    },
    setDefaultBehaviour(next) {
      defaultBehaviour = next;
    },
    reset() {
      requests.length = 0;
      probes.length = 0;
      queue.length = 0;
      slots.reset();
      loaded.clear();
      loadingLeft = dialect.loading ?? 0;
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
