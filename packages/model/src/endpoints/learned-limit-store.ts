import { modelKey } from './capability-store.ts';
import {
  initialLimit,
  nextLimit,
  type LatencySample,
  type LearnedLimit,
  type LimitBounds,
} from './learned-limit.ts';

/** The Redis commands the store needs; ioredis's client and cluster both have them. */
export interface LearnedLimitRedis {
  get(key: string): Promise<string | null>;
  eval(script: string, numberOfKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

export interface LearnedLimits {
  readonly bounds: LimitBounds;
  read(endpoint: string, providerModel: string): Promise<LearnedLimit | undefined>;
  /** Folds one call's latency into the model's limit; the limit after it, or undefined if lost. */
  learn(
    endpoint: string,
    providerModel: string,
    sample: LatencySample,
  ): Promise<LearnedLimit | undefined>;
}

/** Writes the new value only if nobody wrote since it was read: another process's call won. */
const COMPARE_AND_SET = `
local current = redis.call('get', KEYS[1])
if (current == false and ARGV[1] == '') or current == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
  return 1
end
return 0`;

/**
 * A lost race is read again and tried again, up to this often (then the call teaches nothing):
 * each race has a winner, so this many calls ending at the same moment all teach.
 */
const ATTEMPTS = 16;

/**
 * One learned limit per model at an endpoint, for every worker process, kept beside the
 * model's capabilities and expiring with them, so a server changed meanwhile is learned anew.
 * Each call's latency is folded in by read, compute, compare-and-set: two processes finishing
 * calls at once do not overwrite each other's lesson.
 */
export function redisLearnedLimits(
  redis: LearnedLimitRedis,
  prefix: string,
  ttlSeconds: number,
  bounds: LimitBounds,
): LearnedLimits {
  const key = (endpoint: string, model: string) =>
    `${modelKey(prefix, endpoint, model)}:learned-slots`;
  const parse = (text: string | null): LearnedLimit | undefined => {
    if (!text) return undefined;
    try {
      return JSON.parse(text) as LearnedLimit;
    } catch {
      return undefined;
    }
  };
  return {
    bounds,
    async read(endpoint, model) {
      return parse(await redis.get(key(endpoint, model)));
    },
    async learn(endpoint, model, sample) {
      const k = key(endpoint, model);
      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        const text = await redis.get(k);
        const next = nextLimit(parse(text) ?? initialLimit(bounds), sample, bounds);
        const written = await redis.eval(
          COMPARE_AND_SET,
          1,
          k,
          text ?? '',
          JSON.stringify(next),
          ttlSeconds,
        );
        if (written === 1) return next;
      }
      return undefined;
    },
  };
}

/** The same in one process's memory: for tests. */
export function memoryLearnedLimits(bounds: LimitBounds): LearnedLimits {
  const found = new Map<string, LearnedLimit>();
  const k = (endpoint: string, model: string) => `${endpoint}\u0000${model}`;
  return {
    bounds,
    read: (endpoint, model) => Promise.resolve(found.get(k(endpoint, model))),
    learn: (endpoint, model, sample) => {
      const next = nextLimit(found.get(k(endpoint, model)) ?? initialLimit(bounds), sample, bounds);
      found.set(k(endpoint, model), next);
      return Promise.resolve(next);
    },
  };
}
