import { Semaphore, TimeoutError, type LockOptions } from 'redis-semaphore';
import { ExtractionFailure } from '@xt/contract';

/** The Redis client redis-semaphore drives (ioredis's client or cluster). */
type SemaphoreRedis = ConstructorParameters<typeof Semaphore>[0] & {
  zcard(key: string): Promise<number>;
};

/** Whose slots: an endpoint's (as its server or operator told them), or one model's there (learned). */
export interface Slot {
  endpoint: string;
  model?: string | undefined;
  /** undefined: unknown, and the call goes at once */
  limit: number | undefined;
  /** the limit now, asked again each time a waiting call looks: a learned limit moves meanwhile */
  relimit?: (() => Promise<number>) | undefined;
}

export interface EndpointSlots {
  /**
   * Runs `call` once one of the slot's `limit` places is free, counted across every worker
   * process; at once when the limit is unknown. `inFlight` counts the calls holding one now.
   */
  run<T>(
    slot: Slot,
    call: (inFlight: () => Promise<number>) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T>;
}

export interface SlotOptions {
  /** how long a call may wait for a slot before its extraction is retried later */
  waitMs: number;
}

/**
 * Calls in flight per endpoint, across all workers, kept in Redis with redis-semaphore (a
 * maintained semaphore whose slots expire if their holder dies, and are refreshed while it
 * lives). A server that works N requests at once and queues the rest (llama.cpp's slots, Ollama's
 * parallelism) is sent at most N: a call waits here, where its deadline has not started, and
 * never in the server's queue, where a deadline would abandon work the GPU has already begun.
 */
export function redisEndpointSlots(
  redis: SemaphoreRedis,
  prefix: string,
  options: SlotOptions,
): EndpointSlots {
  const lockOptions: LockOptions = {
    // A worker killed mid-call frees its slot after this; a live one refreshes it every third.
    lockTimeout: 30_000,
    refreshInterval: 10_000,
    // Waiting calls look for a free slot this often: 40 waiting cost 200 small scripts a second.
    retryInterval: 200,
  };
  /**
   * A held slot, or a TimeoutError once `waitMs` is out; a learned limit is read again meanwhile,
   * and `seen.limit` is the one last waited under (what a timeout's message names).
   */
  async function acquire(
    key: string,
    slot: Slot,
    seen: { limit: number },
    signal?: AbortSignal,
  ): Promise<Semaphore> {
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      const semaphore = new Semaphore(redis, key, seen.limit, {
        ...lockOptions,
        acquireTimeout: Math.max(1, deadline - Date.now()),
        // a learned limit is read again before every look for a free slot
        ...(slot.relimit ? { acquireAttemptsLimit: 1 } : {}),
      });
      try {
        await semaphore.acquire(signal);
        return semaphore;
      } catch (error) {
        if (!(error instanceof TimeoutError) || !slot.relimit || Date.now() >= deadline)
          throw error;
        seen.limit = await slot.relimit();
      }
    }
  }
  return {
    async run(slot, call, signal) {
      const { endpoint, model, limit } = slot;
      if (limit === undefined) return call(() => Promise.resolve(1));
      const name = [endpoint, ...(model === undefined ? [] : [model])]
        .map(encodeURIComponent)
        .join(':');
      const key = `${prefix}:models:slots:${name}`;
      let held: Semaphore;
      const seen = { limit };
      try {
        held = await acquire(key, slot, seen, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof TimeoutError)
          throw new ExtractionFailure(
            'MODEL_UNAVAILABLE',
            `The model endpoint "${endpoint}" had no free slot for ${Math.round(options.waitMs / 1000)} s (${seen.limit} at once).`,
            { retryable: true, cause: error },
          );
        throw error;
      }
      try {
        // redis-semaphore keeps the holders in a sorted set under its own prefix
        return await call(() => redis.zcard(`semaphore:${key}`));
      } finally {
        await held.release().catch(() => undefined);
      }
    },
  };
}
