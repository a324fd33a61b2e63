import type { RedisConnection } from './redis.ts';

/**
 * Tells API processes that an extraction reached a final state. A request waiting for a result
 * may be held by any API process while any worker, on any machine, finishes the job, so the
 * signal goes through Redis pub/sub. It is only a wake-up call: the waiter reads the outcome
 * from the database, which stays the source of truth (a lost message costs latency, not data).
 */
export function completionChannel(prefix: string): string {
  return `${prefix}:extraction-finished`;
}

export async function publishCompletion(
  redis: RedisConnection,
  prefix: string,
  extractionId: string,
): Promise<void> {
  await redis.publish(completionChannel(prefix), extractionId);
}

type Listener = (notified: boolean) => void;

export interface CompletionWaiter {
  /** Resolves true when notified, false when `timeoutMs` passes or `signal` aborts. */
  wait(extractionId: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Number of registered listeners (for metrics and leak tests). */
  size(): number;
  /** False while the subscriber is disconnected: no wake-up can arrive, so poll more often. */
  readonly live: boolean;
  /** True once closed: waits end at once, so a shutting-down API answers its waiters (202). */
  readonly closed: boolean;
  close(): Promise<void>;
}

/**
 * One subscriber connection per process, shared by every waiting request; listeners are kept
 * in a map and always removed on wake-up, timeout or client disconnect.
 */
export async function createCompletionWaiter(
  subscriber: RedisConnection,
  prefix: string,
): Promise<CompletionWaiter> {
  const listeners = new Map<string, Set<Listener>>();
  let closed = false;
  const channel = completionChannel(prefix);
  subscriber.on('message', (ch: string, id: string) => {
    if (ch !== channel) return;
    const set = listeners.get(id);
    if (!set) return;
    for (const fn of [...set]) fn(true);
  });
  await subscriber.subscribe(channel);

  return {
    get closed() {
      return closed;
    },
    get live() {
      return subscriber.status === 'ready';
    },
    wait(extractionId, timeoutMs, signal) {
      if (closed) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        let set = listeners.get(extractionId);
        if (!set) {
          set = new Set();
          listeners.set(extractionId, set);
        }
        const current = set;
        const done = (notified: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          current.delete(listener);
          if (current.size === 0 && listeners.get(extractionId) === current)
            listeners.delete(extractionId);
          resolve(notified);
        };
        const listener: Listener = (notified) => done(notified);
        const onAbort = () => done(false);
        const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
        current.add(listener);
        if (signal?.aborted) done(false);
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    size() {
      let n = 0;
      for (const set of listeners.values()) n += set.size;
      return n;
    },
    async close() {
      closed = true;
      for (const set of listeners.values()) for (const fn of [...set]) fn(false);
      listeners.clear();
      await subscriber.unsubscribe(channel).catch(() => undefined);
    },
  };
}
