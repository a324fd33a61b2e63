import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { HttpError } from './errors.ts';
import { createOutageReporter, errorSummary } from '@xt/runtime';
import { RedisRateLimitStore } from './rate-limit-store.ts';

/**
 * Per-key request throttling shared by every API process through Redis, so the limit holds
 * behind a load balancer. Counted after authentication: the key (or the dashboard user), not the
 * address, is the client.
 */
export function rateLimiter(options: {
  redis: Redis;
  prefix: string;
  max: number;
  windowSeconds: number;
  logger: Logger;
}): RequestHandler {
  const outage = createOutageReporter(
    options.logger,
    'redis',
    'unavailable; rate limiting is suspended until it answers again',
  );
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.max,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    keyGenerator: (req) =>
      req.principal?.keyId ?? req.principal?.userId ?? ipKeyGenerator(req.ip ?? 'unknown'),
    store: new RedisRateLimitStore(options.redis, `${options.prefix}:rl:`, outage),
    // Redis trouble must not take the API down: let the request through.
    passOnStoreError: true,
    // The store reports outages itself (once each); the library would log every failed request.
    logger: {
      error: () => undefined,
      warn: (err: unknown, message?: string) =>
        options.logger.warn({ error: errorSummary(err) }, message ?? 'rate limiter warning'),
    },
    handler: (_req, res, next) => {
      const reset = res.getHeader('RateLimit-Reset');
      next(
        new HttpError(
          429,
          'RATE_LIMITED',
          'Maximum number of requests exceeded. Please retry later.',
          { headers: { 'Retry-After': String(reset ?? options.windowSeconds) } },
        ),
      );
    },
  });
}
