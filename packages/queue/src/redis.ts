import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { parseRedisUrl } from '@xt/runtime';

/** One server or a Sentinel-managed master (`Redis`), or a Redis Cluster. */
export type RedisConnection = Redis | Cluster;

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
 * Both reconnect for ever, backing off to 2 s between attempts. REDIS_URL may name one server, a
 * Redis Cluster or a Sentinel-managed master (`parseRedisUrl`); a cluster's nodes each get the
 * role's options.
 */
export function createRedis(
  url: string,
  role: RedisRole,
  events: RedisEvents = {},
): RedisConnection {
  const retryStrategy = (times: number) => Math.min(100 * times, 2_000);
  const options: RedisOptions =
    role === 'blocking'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          connectTimeout: 2_000,
          commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
        };
  const redis = connect(url, options, retryStrategy);
  // Without a listener an 'error' event would end the process.
  redis.on('error', (err: Error) => events.onError?.(err));
  if (events.onReady) redis.on('ready', events.onReady);
  return redis;
}

function connect(
  url: string,
  options: RedisOptions,
  retryStrategy: (times: number) => number,
): RedisConnection {
  const target = parseRedisUrl(url);
  if (target.kind === 'server')
    return new Redis(url, { lazyConnect: false, ...options, retryStrategy });
  const tls = target.tls ? { tls: {} } : {};
  const auth = {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
  };
  if (target.kind === 'cluster') {
    const { enableOfflineQueue, ...perNode } = options;
    return new Cluster(target.nodes, {
      lazyConnect: false,
      enableOfflineQueue: enableOfflineQueue ?? true,
      enableReadyCheck: true,
      clusterRetryStrategy: retryStrategy,
      redisOptions: { ...perNode, ...auth, ...tls },
      // Managed clusters with TLS present certificates for the names they were given, not for
      // the addresses CLUSTER SLOTS answers with.
      ...(target.tls ? { dnsLookup: (address, lookup) => lookup(null, address) } : {}),
    });
  }
  return new Redis({
    lazyConnect: false,
    ...options,
    ...auth,
    ...tls,
    sentinels: target.sentinels,
    name: target.masterName,
    db: target.db,
    ...(target.sentinelUsername ? { sentinelUsername: target.sentinelUsername } : {}),
    ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
    ...(target.tls ? { sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
    // Reconnects to the new master as soon as a Sentinel announces the switch, instead of when
    // the old one stops answering.
    failoverDetector: true,
    retryStrategy,
    sentinelRetryStrategy: retryStrategy,
  });
}
