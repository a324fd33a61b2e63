import { Router } from 'express';
import type { Queue } from 'bullmq';
import client from 'prom-client';
import { sameSecret } from './same-secret.ts';

export interface HttpMetrics {
  observe(method: string, route: string, status: number, seconds: number): void;
}

export interface ApiMetrics extends HttpMetrics {
  registry: client.Registry;
}

export function createMetrics(options: { queue?: Queue; waiters?: () => number }): ApiMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  if (options.queue) {
    const queue = options.queue;
    new client.Gauge({
      name: 'extraction_queue_jobs',
      help: 'Jobs in the extraction queue by state',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        // During a Redis outage the depths are unknown: report none rather than fail the scrape.
        this.reset();
        const counts = await queue
          .getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized')
          .catch(() => undefined);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ state }, n);
      },
    });
  }
  if (options.waiters) {
    const waiters = options.waiters;
    new client.Gauge({
      name: 'extraction_waiting_requests',
      help: 'Create requests currently waiting for their extraction to finish',
      registers: [registry],
      collect() {
        this.set(waiters());
      },
    });
  }
  return {
    registry,
    observe(method, route, status, seconds) {
      duration.observe({ method, route, status: String(status) }, seconds);
    },
  };
}

/** Prometheus text; guarded by METRICS_TOKEN (as a bearer token) when that is set (docs/api.md#operational-routes). */
export function metricsRoute(metrics: ApiMetrics, token: string | undefined): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    if (token) {
      const presented = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '';
      if (!sameSecret(presented, token)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res.status(401).json({
          status: false,
          message: 'A valid metrics token is required.',
          code: 'UNAUTHORIZED',
        });
        return;
      }
    }
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  return router;
}
