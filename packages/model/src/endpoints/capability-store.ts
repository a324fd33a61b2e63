import type { Capabilities } from './capabilities.ts';

/** What a probe found for one model at one endpoint, as every process reads it. */
export interface ProbedCapabilities {
  capabilities: Capabilities;
  /** ISO 8601 */
  probedAt: string;
  /** the probe calls' tokens: spent by the service, never charged to an account */
  tokensSpent: number;
  /** what the probe noticed (a refused field, a context the server told), for operators */
  notes: string[];
}

/** The few Redis commands the store needs; ioredis's client and cluster both have them. */
export interface CapabilityRedis {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'EX', seconds: number): Promise<unknown>;
  set(key: string, value: string, px: 'PX', ms: number, nx: 'NX'): Promise<unknown>;
  set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>;
  del(...keys: string[]): Promise<number>;
}

export interface CapabilityStore {
  get(endpoint: string, providerModel: string): Promise<ProbedCapabilities | undefined>;
  put(endpoint: string, providerModel: string, found: ProbedCapabilities): Promise<void>;
  forget(endpoint: string, providerModel: string): Promise<void>;
  /** true when this caller may probe now; others wait for its answer (one probe per model at a time) */
  claimProbe(endpoint: string, providerModel: string, ttlMs: number): Promise<boolean>;
  /** the claimant is still probing: its claim lasts `ttlMs` more */
  holdProbe(endpoint: string, providerModel: string, ttlMs: number): Promise<void>;
  releaseProbe(endpoint: string, providerModel: string): Promise<void>;
}

/** Where what is known of one model at one endpoint is kept in Redis; findings hang below it. */
export function modelKey(prefix: string, endpoint: string, model: string): string {
  return `${prefix}:models:${encodeURIComponent(endpoint)}:${encodeURIComponent(model)}`;
}

/**
 * Capabilities kept in Redis under the queue prefix, so every worker and API process sees one
 * probe's findings, and they expire (`ttlSeconds`) so that a server upgraded or given another
 * model is probed again without anyone's help.
 */
export function redisCapabilityStore(
  redis: CapabilityRedis,
  prefix: string,
  ttlSeconds: number,
): CapabilityStore {
  const key = (endpoint: string, model: string) => modelKey(prefix, endpoint, model);
  return {
    async get(endpoint, model) {
      const text = await redis.get(key(endpoint, model));
      if (!text) return undefined;
      try {
        return JSON.parse(text) as ProbedCapabilities;
      } catch {
        // A value from another version that cannot be read is as good as none: probe again.
        return undefined;
      }
    },
    async put(endpoint, model, found) {
      await redis.set(key(endpoint, model), JSON.stringify(found), 'EX', ttlSeconds);
    },
    async forget(endpoint, model) {
      await redis.del(key(endpoint, model));
    },
    async claimProbe(endpoint, model, ttlMs) {
      return (await redis.set(`${key(endpoint, model)}:probing`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
    async releaseProbe(endpoint, model) {
      await redis.del(`${key(endpoint, model)}:probing`);
    },
    async holdProbe(endpoint, model, ttlMs) {
      await redis.set(`${key(endpoint, model)}:probing`, '1', 'PX', ttlMs);
    },
  };
}

/** A store in memory: for tests, and `npm run models` without Redis. */
export function memoryCapabilityStore(): CapabilityStore {
  const found = new Map<string, ProbedCapabilities>();
  const probing = new Set<string>();
  const k = (endpoint: string, model: string) => `${endpoint}\u0000${model}`;
  return {
    get: (endpoint, model) => Promise.resolve(found.get(k(endpoint, model))),
    put: (endpoint, model, value) => {
      found.set(k(endpoint, model), value);
      return Promise.resolve();
    },
    forget: (endpoint, model) => {
      found.delete(k(endpoint, model));
      return Promise.resolve();
    },
    claimProbe: (endpoint, model) => {
      if (probing.has(k(endpoint, model))) return Promise.resolve(false);
      probing.add(k(endpoint, model));
      return Promise.resolve(true);
    },
    releaseProbe: (endpoint, model) => {
      probing.delete(k(endpoint, model));
      return Promise.resolve();
    },
    holdProbe: () => Promise.resolve(),
  };
}
