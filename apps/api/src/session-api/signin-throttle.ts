import { createHash } from 'node:crypto';
import type { RedisConnection } from '@xt/queue';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../http/errors/errors.ts';

export interface SignInThrottleOptions {
  redis: RedisConnection;
  prefix: string;
  /** Attempts per email from one address. */
  perEmail: number;
  /** Attempts per email from every address it never signed in from, together. */
  perEmailGlobal: number;
  perAddress: number;
  windowSeconds: number;
  logger: Logger;
}

/** How long an address an email signed in from counts as the owner's. */
const KNOWN_ADDRESS_SECONDS = 30 * 86_400;

/**
 * Sign-in attempts are counted per email and client address together (guessing one person's
 * password from one place), per client address (trying many emails), and, more loosely, per email
 * from all the addresses it never signed in from (a guesser rotating addresses). The owner
 * signing in from an address they used before is not counted against that last bound, so an
 * attacker cannot lock them out by failing on purpose. In Redis so the limits hold across API
 * processes. A success clears the email's count from that address. rate-limiter-flexible keeps the counting atomic and, with the
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
  const byEmail = make('email-addr', options.perEmail);
  const byEmailGlobal = make('email', options.perEmailGlobal);
  const byAddress = make('addr', options.perAddress);
  const knownKey = (email: string, address: string) =>
    `${options.prefix}:signin:known:${emailKey(email)}:${address}`;
  const isKnown = (email: string, address: string) =>
    options.redis.exists(knownKey(email, address)).then(
      (n) => n > 0,
      () => false,
    );
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
      const known = await isKnown(email, address);
      try {
        await Promise.all([
          byAddress.consume(address),
          byEmail.consume(`${emailKey(email)}:${address}`),
          ...(known ? [] : [byEmailGlobal.consume(emailKey(email))]),
        ]);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw refuse(err);
        throw err;
      }
    },
    async succeeded(email: string, address: string): Promise<void> {
      await Promise.all([
        byEmail.delete(`${emailKey(email)}:${address}`),
        options.redis.set(knownKey(email, address), '1', 'EX', KNOWN_ADDRESS_SECONDS),
      ]).catch((err: unknown) => {
        options.logger.warn({ err }, 'could not record the sign-in');
      });
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;
