import { ipKeyGenerator } from 'express-rate-limit';
import type { RequestHandler, Response } from 'express';
import type { RedisConnection } from '@xt/queue';
import type { Logger } from 'pino';
import { HttpError } from '../errors/errors.ts';
import { createOutageReporter } from '@xt/runtime';
import { ProcessRateCounter } from './rate-limit-memory.ts';
import { RedisRateCounter, type WindowHits } from './rate-limit-store.ts';

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
 *
 * Both limits are counted by one Redis call (rate-limit-store.ts). The answer is what two
 * express-rate-limit limiters in a row gave: the client's window first, and a request it refuses
 * is not counted for the account; the `RateLimit-*` headers (IETF draft 6) are those of the
 * limit that refused, else the account's.
 *
 * While Redis cannot be reached the same limits are counted in this process instead
 * (rate-limit-memory.ts): a floor for every client, never no limit at all.
 */
export function rateLimiter(options: LimiterOptions): RequestHandler {
  const outage = createOutageReporter(
    options.logger,
    'redis',
    'unavailable; rate limits are counted per process until it answers again',
  );
  const counter = new RedisRateCounter(options.redis, options.prefix, outage);
  const windowMs = options.windowSeconds * 1000;
  const local = new ProcessRateCounter(windowMs);
  return async (req, res, next) => {
    const fallback = () => ipKeyGenerator(req.ip ?? 'unknown');
    const client = req.principal?.keyId ?? req.principal?.userId ?? fallback();
    const account = req.principal ? req.principal.accountId : fallback();
    // Redis trouble must not take the API down, nor lift the limits: this process counts them
    // until Redis answers (the outage is reported once).
    let hits: Awaited<ReturnType<RedisRateCounter['hit']>>;
    try {
      hits = await counter.hit(client, account, windowMs, options.max);
    } catch {
      hits = await local.hit(client, account, options.max);
    }
    const refusing = !hits.account
      ? { limit: options.max, window: hits.client }
      : hits.account.hits > options.accountMax
        ? { limit: options.accountMax, window: hits.account }
        : undefined;
    const shown = refusing ?? { limit: options.accountMax, window: hits.account ?? hits.client };
    const reset = setHeaders(res, shown.limit, shown.window, options.windowSeconds);
    if (!refusing) {
      next();
      return;
    }
    next(
      new HttpError(
        429,
        'RATE_LIMITED',
        'Maximum number of requests exceeded. Please retry later.',
        {
          headers: { 'Retry-After': String(reset) },
        },
      ),
    );
  };
}

/** The draft-6 headers as express-rate-limit set them; returns the seconds until the reset. */
function setHeaders(res: Response, limit: number, window: WindowHits, windowSeconds: number) {
  const reset = Math.max(0, Math.ceil((window.resetTime.getTime() - Date.now()) / 1000));
  if (res.headersSent) return reset;
  res.setHeader('RateLimit-Policy', `${limit};w=${windowSeconds}`);
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(limit - window.hits, 0)));
  res.setHeader('RateLimit-Reset', String(reset));
  return reset;
}
