import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../http/errors.ts';

export interface SignInThrottleOptions {
  redis: Redis;
  prefix: string;
  perEmail: number;
  perAddress: number;
  windowSeconds: number;
  logger: Logger;
}

/**
 * Sign-in attempts are counted per email (guessing one person's password) and per client
 * address (trying many emails), in Redis so the limits hold across API processes. A success
 * clears the email's count. rate-limiter-flexible keeps the counting atomic and, with the
 * in-memory insurance limiter, per-process limits stay in force while Redis is unreachable.
 */
export function signInThrottle(options: SignInThrottleOptions) {
  const make = (name: string, points: number) =>
    new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: `${options.prefix}:signin:${name}`,
      points,
      duration: options.windowSeconds,
      insuranceLimiter: new RateLimiterMemory({ points, duration: options.windowSeconds }),
    });
  const byEmail = make('email', options.perEmail);
  const byAddress = make('addr', options.perAddress);
  // Emails are hashed so that Redis holds no personal data.
  const emailKey = (email: string) =>
    createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

  const refuse = (res: RateLimiterRes) =>
    new HttpError(429, 'RATE_LIMITED', 'Too many sign-in attempts. Please retry later.', {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(res.msBeforeNext / 1000))) },
    });

  return {
    /** Counts one attempt; throws 429 when either limit is used up. */
    async attempt(email: string, address: string): Promise<void> {
      try {
        await Promise.all([byAddress.consume(address), byEmail.consume(emailKey(email))]);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw refuse(err);
        throw err;
      }
    },
    async succeeded(email: string): Promise<void> {
      await byEmail.delete(emailKey(email)).catch((err: unknown) => {
        options.logger.warn({ err }, 'could not reset the sign-in count');
      });
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;
