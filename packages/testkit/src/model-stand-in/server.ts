import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBatchInterface, type BatchInterface, type BatchOptions } from './batch.ts';
import { completion, oracleBehaviour } from './completion.ts';
import { createPromptCache } from './prompt-cache.ts';
import { recordRequest } from './record.ts';
import type { Behaviour, RecordedRequest } from './types.ts';

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
