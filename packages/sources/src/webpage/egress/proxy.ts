import http from 'node:http';
import type { Duplex } from 'node:stream';
import { silentLogger, type WebpageLogger } from '../logger.ts';
import { openTunnel, writeRaw } from './proxy-connect.ts';
import { ProxyGate, type ProxyCounters, type TargetCheck } from './proxy-gate.ts';
import { relayRequest } from './proxy-http.ts';
import type { ProxySession } from './proxy-sessions.ts';

export { parseAuthority } from './proxy-connect.ts';
export type { ProxyCounters, TargetCheck } from './proxy-gate.ts';

export interface FilteringProxyOptions {
  check: TargetCheck;
  logger?: WebpageLogger;
  /** Upstream connect and idle limit; a page's own deadline usually ends things sooner. */
  upstreamTimeoutMs?: number;
}

export interface FilteringProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's proxy settings. */
  readonly server: string;
  readonly counters: Readonly<ProxyCounters>;
  /** Credentials for one job; `maxBytes` caps what the job may pull through. */
  openSession(opts: { maxBytes: number }): ProxySession;
  close(): Promise<void>;
}

/**
 * A forward proxy that is the browser's only way out. It resolves every target itself, refuses
 * non-public addresses (unless allow-listed) and connects to exactly the address it checked, so
 * neither DNS rebinding nor a redirect hop can steer a page to an internal service: each hop is a
 * new request here. Plain HTTP is relayed request by request (proxy-http.ts); https and wss
 * arrive as CONNECT (proxy-connect.ts). Only holders of a live job credential may use it
 * (proxy-gate.ts), so other local processes cannot borrow it.
 */
export async function startFilteringProxy(opts: FilteringProxyOptions): Promise<FilteringProxy> {
  const logger = opts.logger ?? silentLogger;
  const gate = new ProxyGate(opts.check, logger, opts.upstreamTimeoutMs ?? 30_000);
  const server = http.createServer({ keepAliveTimeout: 5_000 });
  server.on('request', (req, res) => {
    relayRequest(gate, req, res).catch((err: unknown) => {
      logger.warn({ err }, 'webpage proxy request failed');
      res.destroy();
    });
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    openTunnel(gate, req, socket, head).catch((err: unknown) => {
      logger.warn({ err }, 'webpage proxy tunnel failed');
      socket.destroy();
    });
  });
  // Chromium tunnels WebSockets with CONNECT; an absolute-form upgrade is not something it sends.
  server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) =>
    writeRaw(socket, '501 Not Implemented'),
  );
  server.on('clientError', (_err, socket) => socket.destroy());
  const port = await listenOnLoopback(server);
  return {
    server: `http://127.0.0.1:${port}`,
    counters: gate.counters,
    openSession: ({ maxBytes }) => gate.sessions.open(maxBytes),
    async close() {
      gate.sessions.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function listenOnLoopback(server: http.Server): Promise<number> {
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
  return address.port;
}
