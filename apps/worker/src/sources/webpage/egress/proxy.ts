import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { ExtractionFailure } from '@xt/contract';
import type { ResolvedAddress } from '@xt/fetcher';
import { silentLogger, type WebpageLogger } from '../logger.ts';
import {
  SessionTable,
  type ProxyRefusal,
  type ProxySession,
  type SessionInternals,
} from './proxy-sessions.ts';

/** Resolves a target once and throws an ExtractionFailure when it may not be contacted. */
export type TargetCheck = (host: string, port: number) => Promise<ResolvedAddress>;

export interface FilteringProxyOptions {
  check: TargetCheck;
  logger?: WebpageLogger;
  /** Upstream connect and idle limit; a page's own deadline usually ends things sooner. */
  upstreamTimeoutMs?: number;
}

export interface ProxyCounters {
  allowed: number;
  refused: number;
  unauthenticated: number;
}

export interface FilteringProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's proxy settings. */
  readonly server: string;
  readonly counters: Readonly<ProxyCounters>;
  /** Credentials for one job; `maxBytes` caps what the job may pull through. */
  openSession(opts: { maxBytes: number }): ProxySession;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const REALM = 'Basic realm="xt-webpage", charset="UTF-8"';

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const listed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** `host:port` or `[v6]:port` from a CONNECT request line; null when malformed. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2] ?? '', port };
}

function toRefusal(host: string, port: number, err: unknown): ProxyRefusal {
  if (
    err instanceof ExtractionFailure &&
    (err.code === 'SOURCE_FORBIDDEN' || err.code === 'SOURCE_UNREACHABLE')
  ) {
    return { host, port, code: err.code, retryable: err.retryable, message: err.message };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { host, port, code: 'SOURCE_UNREACHABLE', retryable: true, message };
}

function writeRaw(socket: Duplex, status: string, extra: string[] = []): void {
  if (socket.destroyed) return;
  socket.end(
    [`HTTP/1.1 ${status}`, ...extra, 'Content-Length: 0', 'Connection: close', '', ''].join('\r\n'),
  );
}

/**
 * A forward proxy that is the browser's only way out. It resolves every target itself, refuses
 * non-public addresses (unless allow-listed) and connects to exactly the address it checked, so
 * neither DNS rebinding nor a redirect hop can steer a page to an internal service: each hop is a
 * new request here. Plain HTTP is relayed request by request; https and wss arrive as CONNECT.
 * Only holders of a live job credential may use it, so other local processes cannot borrow it.
 */
export async function startFilteringProxy(opts: FilteringProxyOptions): Promise<FilteringProxy> {
  const logger = opts.logger ?? silentLogger;
  const timeoutMs = opts.upstreamTimeoutMs ?? 30_000;
  const sessions = new SessionTable();
  const counters: ProxyCounters = { allowed: 0, refused: 0, unauthenticated: 0 };
  // One connection pool per job: reuse within a page, never across jobs (a closing job would
  // otherwise destroy a socket another job had just taken from the pool). Pools are keyed by
  // the checked address, so a reused socket never reaches an unchecked place.
  const agents = new WeakMap<SessionInternals, http.Agent>();
  const agentFor = (session: SessionInternals): http.Agent => {
    let agent = agents.get(session);
    if (!agent) {
      const created = new http.Agent({ keepAlive: true, maxSockets: 16, timeout: timeoutMs });
      session.onClose(() => created.destroy());
      agents.set(session, created);
      agent = created;
    }
    return agent;
  };

  async function admit(
    session: SessionInternals,
    host: string,
    port: number,
  ): Promise<ResolvedAddress | ProxyRefusal> {
    session.countRequest();
    try {
      const resolved = await opts.check(host, port);
      counters.allowed += 1;
      return resolved;
    } catch (err) {
      const refusal = toRefusal(host, port, err);
      counters.refused += 1;
      session.refuse(refusal);
      logger.warn(
        { host, port, code: refusal.code, reason: refusal.message },
        'webpage proxy refused a target',
      );
      return refusal;
    }
  }

  function overBudget(session: SessionInternals, host: string, port: number): void {
    session.refuse({
      host,
      port,
      code: 'SOURCE_TOO_LARGE',
      retryable: false,
      message: `The page transferred more than ${session.maxBytes} bytes.`,
    });
    logger.warn({ host, port, maxBytes: session.maxBytes }, 'webpage transfer budget exceeded');
    session.close();
  }

  async function onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const session = sessions.authenticate(req.headers['proxy-authorization']);
    if (!session) {
      counters.unauthenticated += 1;
      res.writeHead(407, { 'proxy-authenticate': REALM, 'content-length': '0' }).end();
      return;
    }
    session.track(req.socket);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-length': '0' }).end();
      return;
    }
    // Absolute-form http only: https is tunnelled with CONNECT, anything else is not web content.
    if (target.protocol !== 'http:') {
      res.writeHead(400, { 'content-length': '0' }).end();
      return;
    }
    const port = target.port === '' ? 80 : Number(target.port);
    const verdict = await admit(session, target.hostname, port);
    if ('code' in verdict) {
      const status = verdict.code === 'SOURCE_FORBIDDEN' ? 403 : 502;
      res.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'x-xt-proxy-refusal': verdict.code,
      });
      res.end(`Refused by the extraction service: ${verdict.message}\n`);
      return;
    }
    if (session.closed) {
      res.destroy();
      return;
    }
    const headers = endToEnd(req.headers);
    headers.host = target.host;
    const upstream = http.request({
      host: verdict.address,
      family: verdict.family,
      port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers,
      agent: agentFor(session),
      setHost: false,
      timeout: timeoutMs,
    });
    upstream.on('socket', (socket) => session.track(socket));
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('error', (err) => {
      if (!res.headersSent) {
        const refusal = toRefusal(target.hostname, port, err);
        session.refuse(refusal);
        res.writeHead(502, {
          'content-type': 'text/plain; charset=utf-8',
          'x-xt-proxy-refusal': refusal.code,
        });
        res.end(`Upstream failed: ${refusal.message}\n`);
      } else {
        res.destroy();
      }
    });
    upstream.on('response', (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, endToEnd(upRes.headers));
      upRes.on('data', (chunk: Buffer) => {
        if (!session.addBytes(chunk.length)) overBudget(session, target.hostname, port);
      });
      upRes.pipe(res);
      upRes.on('error', () => res.destroy());
    });
    req.pipe(upstream);
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
  }

  async function onConnect(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const session = sessions.authenticate(req.headers['proxy-authorization']);
    if (!session) {
      counters.unauthenticated += 1;
      // Node stops parsing a socket once it has emitted 'connect', so the challenge must close it;
      // Chromium then retries on a fresh connection with credentials.
      writeRaw(client, '407 Proxy Authentication Required', [`Proxy-Authenticate: ${REALM}`]);
      return;
    }
    session.track(client);
    const authority = parseAuthority(req.url ?? '');
    if (!authority) {
      writeRaw(client, '400 Bad Request');
      return;
    }
    const verdict = await admit(session, authority.host, authority.port);
    if ('code' in verdict) {
      writeRaw(client, verdict.code === 'SOURCE_FORBIDDEN' ? '403 Forbidden' : '502 Bad Gateway', [
        `X-Xt-Proxy-Refusal: ${verdict.code}`,
      ]);
      return;
    }
    if (session.closed || client.destroyed) {
      client.destroy();
      return;
    }
    const upstream = net.connect({
      host: verdict.address,
      port: authority.port,
      family: verdict.family,
    });
    session.track(upstream);
    upstream.setTimeout(timeoutMs, () => upstream.destroy());
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.on('data', (chunk: Buffer) => {
        if (!session.addBytes(chunk.length)) overBudget(session, authority.host, authority.port);
      });
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => {
      if (connected) {
        client.destroy();
        return;
      }
      session.refuse(toRefusal(authority.host, authority.port, err));
      writeRaw(client, '502 Bad Gateway');
    });
    upstream.on('close', () => {
      if (connected) client.destroy();
    });
    client.on('close', () => upstream.destroy());
  }

  const server = http.createServer({ keepAliveTimeout: 5_000 });
  server.on('request', (req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      logger.warn({ err }, 'webpage proxy request failed');
      res.destroy();
    });
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    onConnect(req, socket, head).catch((err: unknown) => {
      logger.warn({ err }, 'webpage proxy tunnel failed');
      socket.destroy();
    });
  });
  // Chromium tunnels WebSockets with CONNECT; an absolute-form upgrade is not something it sends.
  server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) =>
    writeRaw(socket, '501 Not Implemented'),
  );
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('proxy did not bind a TCP port');

  return {
    server: `http://127.0.0.1:${address.port}`,
    counters,
    openSession: ({ maxBytes }) => sessions.open(maxBytes),
    async close() {
      sessions.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
