import { Semaphore, TimeoutError, type LockOptions } from 'redis-semaphore';
import { ExtractionFailure } from '@xt/contract';

/** The Redis client redis-semaphore drives (ioredis's client or cluster). */
type SemaphoreRedis = ConstructorParameters<typeof Semaphore>[0];

export interface EndpointSlots {
  /**
   * Runs `call` once one of the endpoint's `limit` slots is free, counted across every worker
   * process; at once when the limit is unknown.
   */
  run<T>(
    endpoint: string,
    limit: number | undefined,
    call: () => Promise<T>,
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
    acquireTimeout: options.waitMs,
    // Waiting calls look for a free slot this often: 40 waiting cost 200 small scripts a second.
    retryInterval: 200,
  };
  return {
    async run(endpoint, limit, call, signal) {
      if (limit === undefined) return call();
      const slot = new Semaphore(
        redis,
        `${prefix}:models:slots:${encodeURIComponent(endpoint)}`,
        limit,
        lockOptions,
      );
      try {
        await slot.acquire(signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof TimeoutError)
          throw new ExtractionFailure(
            'MODEL_UNAVAILABLE',
            `The model endpoint "${endpoint}" had no free slot for ${Math.round(options.waitMs / 1000)} s (${limit} at once).`,
            { retryable: true, cause: error },
          );
        throw error;
      }
      try {
        return await call();
      } finally {
        await slot.release().catch(() => undefined);
      }
    },
  };
}
