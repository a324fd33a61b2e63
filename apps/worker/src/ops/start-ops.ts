import type { RedisConnection } from '@xt/queue';
import type { DbHandle } from '@xt/db';
import type { Logger } from 'pino';
import { opsPort, type WorkerConfig } from '../config.ts';
import type { StartupCheck } from '../startup-checks.ts';
import { startOpsServer, type OpsServer } from './ops-server.ts';
import type { WorkerMetrics } from './worker-metrics.ts';

/**
 * Starts the worker's /healthz, /readyz and /metrics when WORKER_METRICS_PORT is not 0, with
 * the dependencies /readyz checks: Redis (the producer connection), PostgreSQL (the pool) and
 * the browser (the start-up check of Chromium).
 */
export async function startWorkerOps(deps: {
  config: WorkerConfig;
  logger: Logger;
  metrics: WorkerMetrics;
  redis: RedisConnection;
  pool: DbHandle['pool'];
  chromium: Promise<StartupCheck>;
  stopping: () => boolean;
  loopHealthy: () => boolean;
}): Promise<OpsServer | undefined> {
  const port = opsPort(deps.config);
  if (port === undefined) return undefined;
  const ops = await startOpsServer({
    port,
    host: deps.config.WORKER_METRICS_HOST,
    registry: deps.metrics.registry,
    token: deps.config.METRICS_TOKEN,
    probes: {
      redis: () => deps.redis.ping(),
      postgres: () => deps.pool.query('select 1'),
      browser: async () => {
        const check = await deps.chromium;
        if (!check.ok) throw new Error(check.message);
      },
    },
    stopping: deps.stopping,
    loopHealthy: deps.loopHealthy,
  });
  deps.logger.info({ url: ops.url }, 'worker ops endpoints listening');
  return ops;
}
