import { Redis, type RedisOptions } from 'ioredis';

/**
 * BullMQ needs `maxRetriesPerRequest: null` on connections that block (workers, subscribers).
 * The API's producer connection instead fails fast, so a Redis outage turns into a quick
 * fallback (the row stays `pending` and the reconciler enqueues it) rather than a hung request.
 */
export function createRedis(url: string, role: 'producer' | 'blocking'): Redis {
  const options: RedisOptions =
    role === 'blocking'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 5_000 };
  const redis = new Redis(url, { lazyConnect: false, ...options });
  // Errors are retried by ioredis; without a listener they would crash the process.
  redis.on('error', () => undefined);
  return redis;
}
