import type { IncrementResponse, Options, Store } from 'express-rate-limit';
import type { RedisConnection } from '@xt/queue';
import type { OutageReporter } from '@xt/runtime';

// A fixed window per key: the first hit sets the expiry, later hits only count.
const INCREMENT = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then
  redis.call('SET', KEYS[1], 1, 'PX', ARGV[1])
  return { 1, tonumber(ARGV[1]) }
end
return { redis.call('INCR', KEYS[1]), ttl }`;

/** After a failed call, requests skip Redis for this long before one tries it again. */
const SKIP_AFTER_FAILURE_MS = 5_000;

/**
 * Per Redis connection, not per store: the per-key and per-account limiters share one client,
 * and a hung Redis must cost one request its timeout, not one per limiter.
 */
const skipUntilByClient = new WeakMap<RedisConnection, number>();

type WithIncrement = RedisConnection & {
  xtRateIncrement(key: string, windowMs: string): Promise<[number, number]>;
};

/**
 * The rate-limit counters in Redis, shared by all API processes. Written here rather than taken
 * from rate-limit-redis because that store caches its script load at start-up: when Redis is
 * down then, the load fails once, the rejection is never handled, and limiting never resumes.
 * ioredis's defineCommand reloads scripts on its own.
 *
 * During an outage the store fails fast (no queued commands; after one failure it does not
 * touch Redis for a few seconds, so a hung Redis delays at most one request per interval), the
 * limiter lets requests through, and `outage` logs one warning and one recovery line.
 */
export class RedisRateLimitStore implements Store {
  readonly #redis: WithIncrement;
  readonly #prefix: string;
  readonly #outage: OutageReporter;
  #windowMs = 60_000;

  constructor(redis: RedisConnection, prefix: string, outage: OutageReporter) {
    if (!('xtRateIncrement' in redis))
      redis.defineCommand('xtRateIncrement', { numberOfKeys: 1, lua: INCREMENT });
    this.#redis = redis as WithIncrement;
    this.#prefix = prefix;
    this.#outage = outage;
  }

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  async increment(key: string): Promise<IncrementResponse> {
    const [hits, ttl] = await this.#call(() =>
      this.#redis.xtRateIncrement(this.#prefix + key, String(this.#windowMs)),
    );
    return { totalHits: hits, resetTime: new Date(Date.now() + ttl) };
  }

  async decrement(key: string): Promise<void> {
    await this.#call(() => this.#redis.decr(this.#prefix + key));
  }

  async resetKey(key: string): Promise<void> {
    await this.#call(() => this.#redis.del(this.#prefix + key));
  }

  async #call<T>(command: () => Promise<T>): Promise<T> {
    if (Date.now() < (skipUntilByClient.get(this.#redis) ?? 0) || this.#redis.status !== 'ready') {
      const err = new Error(`Redis is not available (connection ${this.#redis.status})`);
      this.#outage.failed(err);
      throw err;
    }
    try {
      const result = await command();
      this.#outage.recovered();
      return result;
    } catch (err) {
      skipUntilByClient.set(this.#redis, Date.now() + SKIP_AFTER_FAILURE_MS);
      this.#outage.failed(err);
      throw err;
    }
  }
}
