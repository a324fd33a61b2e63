import { Router } from 'express';
import type { Redis } from 'ioredis';
import type pg from 'pg';

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

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
    const [db, redis] = await Promise.allSettled([
      within(2000, deps.pool.query('select 1')),
      within(2000, deps.redis.ping()),
    ]);
    const checks = {
      postgres: db.status === 'fulfilled',
      redis: redis.status === 'fulfilled',
      ...(deps.stopping?.() ? { stopping: true } : {}),
    };
    const ok = checks.postgres && checks.redis && !deps.stopping?.();
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
