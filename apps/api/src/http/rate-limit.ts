import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { HttpError } from '@xt/contract';

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
}): RequestHandler {
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.max,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    keyGenerator: (req) =>
      req.principal?.keyId ?? req.principal?.userId ?? ipKeyGenerator(req.ip ?? 'unknown'),
    store: new RedisStore({
      prefix: `${options.prefix}:rl:`,
      sendCommand: (command: string, ...args: string[]) =>
        options.redis.call(command, ...args) as Promise<RedisReply>,
    }),
    // Redis trouble must not take the API down: let the request through.
    passOnStoreError: true,
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
