import type { RedisConnection } from '@xt/queue';
import type { DbHandle } from '@xt/db';
import type { Logger } from 'pino';
import { listenFailure } from '@xt/runtime';
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
  const host = deps.config.WORKER_METRICS_HOST;
  const ops = await startOpsServer({
    port,
    host,
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
  }).catch((error: Error) => {
    // One line naming the setting, not a stack trace: a taken port is fixed by configuration.
    throw listenFailure(
      error,
      "the worker's health and metrics endpoints",
      { host, port },
      'set WORKER_METRICS_PORT to a free port (WORKER_INDEX is added to it), or to 0 to serve none',
    );
  });
  deps.logger.info({ url: ops.url }, 'worker ops endpoints listening');
  return ops;
}
