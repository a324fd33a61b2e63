import type { RedisConnection } from '@xt/queue';
import { createSkipBreaker, type OutageReporter, type SkipBreaker } from '@xt/runtime';

/**
 * Both fixed windows of a request in one call: the client's (KEYS[1]) and, unless that one is
 * already past its limit (ARGV[2]), the account's (KEYS[2]). The first hit of a window sets its
 * expiry, later hits only count. Both keys start with the braced prefix, so on a Redis Cluster
 * they share a slot and one script may touch both.
 */
const HIT = `
local function hit(key)
  local ttl = redis.call('PTTL', key)
  if ttl <= 0 then
    redis.call('SET', key, 1, 'PX', ARGV[1])
    return { 1, tonumber(ARGV[1]) }
  end
  return { redis.call('INCR', key), ttl }
end
local client = hit(KEYS[1])
if client[1] > tonumber(ARGV[2]) then return client end
local account = hit(KEYS[2])
return { client[1], client[2], account[1], account[2] }`;

/** After a failed call, requests skip Redis for this long before one tries it again. */
const SKIP_AFTER_FAILURE_MS = 5_000;

/** Per Redis connection: a hung Redis must cost one request its timeout, not one per caller. */
const breakers = new WeakMap<RedisConnection, SkipBreaker>();

function breakerOf(redis: RedisConnection): SkipBreaker {
  let breaker = breakers.get(redis);
  if (!breaker) breakers.set(redis, (breaker = createSkipBreaker(SKIP_AFTER_FAILURE_MS)));
  return breaker;
}

type WithHit = RedisConnection & {
  xtRateHit(
    clientKey: string,
    accountKey: string,
    windowMs: string,
    clientMax: string,
  ): Promise<number[]>;
};

/** A window's count so far, this request included, and when it ends. */
export interface WindowHits {
  hits: number;
  resetTime: Date;
}

/**
 * The rate-limit counters in Redis, shared by all API processes: one script call per request
 * for both limits (one round trip; two were 12% of the API's CPU on a record read,
 * docs/performance.md). ioredis's defineCommand loads the script again whenever Redis has
 * lost it, so limiting resumes on its own after an outage.
 *
 * During an outage the counter fails fast (no queued commands; after one failure it does not
 * touch Redis for a few seconds, so a hung Redis delays at most one request per interval), the
 * limiter counts in its own process instead, and `outage` logs one warning and one recovery line.
 */
export class RedisRateCounter {
  readonly #redis: WithHit;
  readonly #prefix: string;
  readonly #outage: OutageReporter;
  readonly #breaker: SkipBreaker;

  constructor(redis: RedisConnection, prefix: string, outage: OutageReporter) {
    if (!('xtRateHit' in redis)) redis.defineCommand('xtRateHit', { numberOfKeys: 2, lua: HIT });
    this.#redis = redis as WithHit;
    this.#breaker = breakerOf(redis);
    this.#prefix = prefix;
    this.#outage = outage;
  }

  /** Counts the request for its client and, unless the client is past `clientMax`, its account. */
  async hit(
    client: string,
    account: string,
    windowMs: number,
    clientMax: number,
  ): Promise<{ client: WindowHits; account?: WindowHits }> {
    if (this.#breaker.open || this.#redis.status !== 'ready') {
      const err = new Error(`Redis is not available (connection ${this.#redis.status})`);
      this.#outage.failed(err);
      throw err;
    }
    let reply: number[];
    try {
      reply = await this.#redis.xtRateHit(
        `${this.#prefix}:rl:${client}`,
        `${this.#prefix}:rla:${account}`,
        String(windowMs),
        String(clientMax),
      );
      this.#breaker.succeeded();
      this.#outage.recovered();
    } catch (err) {
      this.#breaker.failed();
      this.#outage.failed(err);
      throw err;
    }
    const now = Date.now();
    const window = (hits: number, ttl: number) => ({ hits, resetTime: new Date(now + ttl) });
    const [clientHits = 0, clientTtl = windowMs, accountHits, accountTtl] = reply;
    return {
      client: window(clientHits, clientTtl),
      ...(accountHits === undefined
        ? {}
        : { account: window(accountHits, accountTtl ?? windowMs) }),
    };
  }
}
