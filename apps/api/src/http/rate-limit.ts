import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Request, RequestHandler } from 'express';
import type { RedisConnection } from '@xt/queue';
import type { Logger } from 'pino';
import { HttpError } from './errors.ts';
import { createOutageReporter, errorSummary } from '@xt/runtime';
import { RedisRateLimitStore } from './rate-limit-store.ts';

interface LimiterOptions {
  redis: RedisConnection;
  prefix: string;
  /** Requests per key (or dashboard user) per window. */
  max: number;
  /** Requests per account per window, all its keys and sessions together. */
  accountMax: number;
  windowSeconds: number;
  logger: Logger;
}

/**
 * Request throttling shared by every API process through Redis, so the limits hold behind a load
 * balancer. Counted after authentication: the key (or the dashboard user) is the client, and its
 * account is counted too, so that creating more keys buys no more requests.
 */
export function rateLimiter(options: LimiterOptions): RequestHandler {
  const outage = createOutageReporter(
    options.logger,
    'redis',
    'unavailable; rate limiting is suspended until it answers again',
  );
  const perKey = limiter(
    options,
    outage,
    options.max,
    'rl',
    (req) => req.principal?.keyId ?? req.principal?.userId ?? ipKeyGenerator(req.ip ?? 'unknown'),
  );
  const perAccount = limiter(options, outage, options.accountMax, 'rla', (req) =>
    req.principal ? req.principal.accountId : ipKeyGenerator(req.ip ?? 'unknown'),
  );
  return (req, res, next) => {
    void perKey(req, res, (err?: unknown) => {
      if (err) next(err);
      else void perAccount(req, res, next);
    });
  };
}

function limiter(
  options: LimiterOptions,
  outage: ReturnType<typeof createOutageReporter>,
  max: number,
  space: string,
  keyGenerator: (req: Request) => string,
): RequestHandler {
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: max,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    keyGenerator,
    store: new RedisRateLimitStore(options.redis, `${options.prefix}:${space}:`, outage),
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
