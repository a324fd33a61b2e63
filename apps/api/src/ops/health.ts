import { Router } from 'express';
import type { RedisConnection } from '@xt/queue';
import type pg from 'pg';
import { probeAll } from '@xt/telemetry';
import { z } from 'zod';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/errors/error-handler.ts';

export const ReadyChecksSchema = z
  .object({
    postgres: z.boolean(),
    redis: z.boolean(),
    stopping: z.literal(true).optional().meta({ description: 'present while shutting down' }),
  })
  .meta({ id: 'ReadyChecks' });

export const AliveSchema = z.object({
  status: z.literal(true),
  message: z.literal('alive'),
  data: z.object({}),
});
export const ReadySchema = z.object({
  status: z.literal(true),
  message: z.literal('ready'),
  data: ReadyChecksSchema,
});
/** The one error body that carries `data`: which dependency is not answering. */
export const NotReadySchema = z
  .object({
    status: z.literal(false),
    message: z.literal('not ready'),
    code: z.literal('NOT_READY'),
    data: ReadyChecksSchema,
  })
  .meta({ id: 'NotReady' });

/** Liveness says the process runs; readiness says it can serve (Postgres and Redis answer). */
export function healthRoutes(deps: {
  pool: pg.Pool;
  redis: RedisConnection;
  /** True once the process is shutting down: a load balancer should stop sending requests. */
  stopping?: () => boolean;
}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    const body: z.output<typeof AliveSchema> = { status: true, message: 'alive', data: {} };
    res.json(body);
  });
  router.get('/readyz', async (_req, res) => {
    const probed = await probeAll({
      postgres: () => deps.pool.query('select 1'),
      redis: () => deps.redis.ping(),
    });
    const stopping = deps.stopping?.() ?? false;
    const checks: z.output<typeof ReadyChecksSchema> = {
      ...probed.checks,
      ...(stopping ? { stopping: true as const } : {}),
    };
    if (probed.ok && !stopping) {
      const body: z.output<typeof ReadySchema> = { status: true, message: 'ready', data: checks };
      res.json(body);
      return;
    }
    // Like every 503 of the API: say when to look again (docs/api.md#envelope-and-status-codes).
    res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    const body: z.output<typeof NotReadySchema> = {
      status: false,
      message: 'not ready',
      code: 'NOT_READY',
      data: checks,
    };
    res.status(503).json(body);
  });
  return router;
}
