import { Cluster, Redis, type Command, type RedisOptions } from 'ioredis';
import { parseRedisUrl, patientTimeout } from '@xt/runtime';

/** One server or a Sentinel-managed master (`Redis`), or a Redis Cluster. */
export type RedisConnection = Redis | Cluster;

export type RedisRole = 'producer' | 'blocking';

export interface RedisEvents {
  /** Connection errors (refused, reset, timed out). ioredis keeps reconnecting regardless. */
  onError?: (err: Error) => void;
  /** The connection is (again) ready for commands. */
  onReady?: () => void;
}

/**
 * Commands on a producer connection give up after this long without an answer when Redis hangs,
 * not counting time the event loop was too busy to read one (patientTimeout): a busy process
 * makes a command slower, not a timeout while Redis is fine. ioredis's own `commandTimeout`, a
 * plain timer, stays only as a backstop.
 */
const PRODUCER_COMMAND_TIMEOUT_MS = 1_000;
const PRODUCER_COMMAND_BACKSTOP_MS = 10_000;

const armed = new WeakSet<Command>();

/** Rejects `command` as ioredis's command timeout would, after `ms` of the loop's own time. */
function armPatientTimeout(command: Command, ms: number): void {
  // A cluster sends a command again after a redirection: one timeout for all its tries.
  if (command.isResolved || armed.has(command)) return;
  armed.add(command);
  const cancel = patientTimeout(ms, () => {
    if (!command.isResolved) command.reject(new Error('Command timed out'));
  });
  command.promise.then(cancel, cancel);
}

/** Every command of a producer passes through `sendCommand`, pipelines' included. */
class PatientRedis extends Redis {
  commandTimeoutMs = 0;
  override sendCommand(...args: Parameters<Redis['sendCommand']>): unknown {
    if (this.commandTimeoutMs > 0) armPatientTimeout(args[0], this.commandTimeoutMs);
    return super.sendCommand(...args);
  }
}

class PatientCluster extends Cluster {
  commandTimeoutMs = 0;
  override sendCommand(...args: Parameters<Cluster['sendCommand']>): unknown {
    if (this.commandTimeoutMs > 0) armPatientTimeout(args[0], this.commandTimeoutMs);
    return super.sendCommand(...args);
  }
}

/**
 * Two kinds of connection:
 * - `producer` (API requests, enqueues, the reconciler, publishes) fails fast: no offline queue,
 *   so a command during an outage fails at once instead of piling up in memory, and a command
 *   timeout, so a hung Redis (process stopped, socket open) costs about a second (more only
 *   while this process's own event loop is too busy to read the answer). Callers
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
          commandTimeout: PRODUCER_COMMAND_BACKSTOP_MS,
        };
  const redis = connect(url, options, retryStrategy);
  // Set before any command: the first (the ready check) is sent once the socket connects.
  if (role === 'producer') redis.commandTimeoutMs = PRODUCER_COMMAND_TIMEOUT_MS;
  // Without a listener an 'error' event would end the process.
  redis.on('error', (err: Error) => events.onError?.(err));
  if (events.onReady) redis.on('ready', events.onReady);
  return redis;
}

function connect(
  url: string,
  options: RedisOptions,
  retryStrategy: (times: number) => number,
): PatientRedis | PatientCluster {
  const target = parseRedisUrl(url);
  if (target.kind === 'server')
    return new PatientRedis(url, { lazyConnect: false, ...options, retryStrategy });
  const tls = target.tls ? { tls: {} } : {};
  const auth = {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
  };
  if (target.kind === 'cluster') {
    const { enableOfflineQueue, ...perNode } = options;
    return new PatientCluster(target.nodes, {
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
  return new PatientRedis({
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
