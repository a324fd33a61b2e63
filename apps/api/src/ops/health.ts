import { Router } from 'express';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { probeAll } from '@xt/telemetry';

/** Liveness says the process runs; readiness says it can serve (Postgres and Redis answer). */
export function healthRoutes(deps: {
  pool: pg.Pool;
  redis: Redis;
  /** True once the process is shutting down: a load balancer should stop sending requests. */
  stopping?: () => boolean;
}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: true, message: 'alive', data: {} });
  });
  router.get('/readyz', async (_req, res) => {
    const probed = await probeAll({
      postgres: () => deps.pool.query('select 1'),
      redis: () => deps.redis.ping(),
    });
    const stopping = deps.stopping?.() ?? false;
    const checks = { ...probed.checks, ...(stopping ? { stopping: true } : {}) };
    const ok = probed.ok && !stopping;
    res
      .status(ok ? 200 : 503)
      .json(
        ok
          ? { status: true, message: 'ready', data: checks }
          : { status: false, message: 'not ready', code: 'NOT_READY', ...{ data: checks } },
      );
  });
  return router;
}
