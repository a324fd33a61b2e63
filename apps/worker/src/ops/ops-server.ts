import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeAll, serveMetrics, type Probe, type Registry } from '@xt/telemetry';

export interface OpsServerOptions {
  port: number;
  host: string;
  registry: Registry;
  /** METRICS_TOKEN: when set, /metrics wants it as a bearer token (as the API's /metrics does). */
  token: string | undefined;
  /** Each dependency the worker needs, by the name /readyz reports it under. */
  probes: { redis: Probe; postgres: Probe; browser: Probe };
  /** True once the worker is draining: it takes no new jobs, so it is not ready. */
  stopping: () => boolean;
  /** False while the event loop is blocked past its threshold: neither alive nor ready then. */
  loopHealthy: () => boolean;
}

export interface OpsServer {
  readonly url: string;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

const blocked = {
  status: false,
  message: 'The event loop is blocked.',
  code: 'NOT_READY',
  data: { eventLoop: false },
};

/**
 * The worker's operational endpoints, on a port of its own (the worker serves no other HTTP):
 * /healthz (the process runs), /readyz (Redis, PostgreSQL and the browser are usable; 503 names
 * the one that is not) and /metrics (Prometheus text). Plain node:http: three fixed GET routes
 * do not warrant a framework in a process that otherwise has none.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      json(res, 405, { status: false, message: 'Only GET is served here.', code: 'NOT_ALLOWED' });
      return;
    }
    if (path === '/healthz') {
      if (options.loopHealthy()) json(res, 200, { status: true, message: 'alive', data: {} });
      else json(res, 503, blocked);
    } else if (path === '/readyz') {
      // Read before any await: the first request served after a blocked stretch tells of it.
      const loop = options.loopHealthy();
      const probed = await probeAll(options.probes);
      const stopping = options.stopping();
      const checks = {
        ...probed.checks,
        eventLoop: loop,
        ...(stopping ? { stopping: true } : {}),
      };
      if (probed.ok && loop && !stopping)
        json(res, 200, { status: true, message: 'ready', data: checks });
      else json(res, 503, { status: false, message: 'not ready', code: 'NOT_READY', data: checks });
    } else if (path === '/metrics') {
      await serveMetrics(options.registry, options.token, req, res);
    } else {
      json(res, 404, { status: false, message: 'Not found.', code: 'NOT_FOUND' });
    }
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // A scrape whose collection failed: say so rather than leave the connection open.
      if (!res.headersSent) json(res, 500, { status: false, message: 'failed', code: 'INTERNAL' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Keep-alive scrapes must not hold the process open once the worker has closed.
  server.unref();
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
