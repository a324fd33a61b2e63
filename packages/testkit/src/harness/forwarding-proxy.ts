/**
 * A forwarding proxy for client tests: it records every request and lets a test answer some of
 * them itself (a 503, a 429, a dropped connection, silence), after or instead of passing them
 * to the real API, the way a load balancer or a flaky network would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Milliseconds since the epoch when it arrived. */
  at: number;
}

/**
 * What to do with one request: `undefined` forwards it; `forward: true` forwards it first and
 * then answers with `status` anyway (the service acted, the client never hears); `drop` closes
 * the connection; `hang` never answers.
 */
export interface Intercept {
  status?: number;
  headers?: Record<string, string>;
  forward?: boolean;
  drop?: boolean;
  hang?: boolean;
}

export interface TestProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Decides per request; cleared by `reset`. */
  intercept(rule: (req: ProxiedRequest) => Intercept | undefined): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startTestProxy(upstream: string): Promise<TestProxy> {
  const requests: ProxiedRequest[] = [];
  let rule: (req: ProxiedRequest) => Intercept | undefined = () => undefined;
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        at: Date.now(),
      };
      requests.push(seen);
      const action = rule(seen);
      void handle(action, seen, Buffer.concat(chunks), req, res);
    });
  });

  async function handle(
    action: Intercept | undefined,
    seen: ProxiedRequest,
    body: Buffer,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    if (action?.drop) {
      req.socket.destroy();
      return;
    }
    if (action?.hang) {
      hanging.add(res);
      return;
    }
    const upstreamRes =
      !action || action.forward ? await forward(upstream, seen, req, body) : undefined;
    if (action?.status !== undefined) {
      res
        .writeHead(action.status, { 'content-type': 'application/json', ...action.headers })
        .end(JSON.stringify({ status: false, message: 'from the test proxy' }));
      return;
    }
    const answer = upstreamRes!;
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      if (key !== 'content-length' && key !== 'transfer-encoding' && key !== 'connection')
        headers[key] = value;
    });
    res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    intercept(next) {
      rule = next;
    },
    reset() {
      requests.length = 0;
      rule = () => undefined;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function forward(
  upstream: string,
  seen: ProxiedRequest,
  req: IncomingMessage,
  body: Buffer,
): Promise<Response> {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_HEADERS.has(key)) continue;
    headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  return fetch(upstream + seen.path, {
    method: seen.method,
    headers,
    ...(body.length ? { body } : {}),
  });
}

/** Headers that describe one connection or are recomputed by fetch for the new request. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);
