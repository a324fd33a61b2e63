import { Router } from 'express';
import type { Queue } from 'bullmq';
import { createRegistry, Gauge, Histogram, serveMetrics, type Registry } from '@xt/telemetry';

export interface HttpMetrics {
  observe(method: string, route: string, status: number, seconds: number): void;
}

export interface ApiMetrics extends HttpMetrics {
  registry: Registry;
}

export function createMetrics(options: { queue?: Queue; waiters?: () => number }): ApiMetrics {
  const registry = createRegistry();
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  if (options.queue) {
    const queue = options.queue;
    new Gauge({
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
    new Gauge({
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
  router.get('/metrics', (req, res) => serveMetrics(metrics.registry, token, req, res));
  return router;
}
