import { Redis, type RedisOptions } from 'ioredis';

export type RedisRole = 'producer' | 'blocking';

export interface RedisEvents {
  /** Connection errors (refused, reset, timed out). ioredis keeps reconnecting regardless. */
  onError?: (err: Error) => void;
  /** The connection is (again) ready for commands. */
  onReady?: () => void;
}

/** Commands on a producer connection give up after this long when Redis hangs. */
export const PRODUCER_COMMAND_TIMEOUT_MS = 1_000;

/**
 * Two kinds of connection:
 * - `producer` (API requests, enqueues, the reconciler, publishes) fails fast: no offline queue,
 *   so a command during an outage fails at once instead of piling up in memory, and a command
 *   timeout, so a hung Redis (process stopped, socket open) costs at most a second. Callers
 *   fall back (the committed row waits for the reconciler; the rate limiter lets requests by).
 * - `blocking` (BullMQ's worker, the completion subscriber) must wait across outages: BullMQ
 *   requires `maxRetriesPerRequest: null` there, and its blocking commands cannot time out.
 * Both reconnect for ever, backing off to 2 s between attempts.
 */
export function createRedis(url: string, role: RedisRole, events: RedisEvents = {}): Redis {
  const retryStrategy = (times: number) => Math.min(100 * times, 2_000);
  const options: RedisOptions =
    role === 'blocking'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true, retryStrategy }
      : {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          connectTimeout: 2_000,
          commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
          retryStrategy,
        };
  const redis = new Redis(url, { lazyConnect: false, ...options });
  // Without a listener an 'error' event would end the process.
  redis.on('error', (err: Error) => events.onError?.(err));
  if (events.onReady) redis.on('ready', events.onReady);
  return redis;
}
