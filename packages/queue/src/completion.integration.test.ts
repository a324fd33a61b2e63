import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl, uniquePrefix } from '@xt/testkit';
import { createRedis } from './redis.ts';
import { createCompletionWaiter, publishCompletion, type CompletionWaiter } from './completion.ts';

let waiter: CompletionWaiter;
let publisher: ReturnType<typeof createRedis>;
let subscriber: ReturnType<typeof createRedis>;
const prefix = uniquePrefix('cw');

beforeAll(async () => {
  publisher = createRedis(testRedisUrl(), 'producer');
  subscriber = createRedis(testRedisUrl(), 'blocking');
  waiter = await createCompletionWaiter(subscriber, prefix);
  // A producer connection has no offline queue: publish only once it is connected.
  if (publisher.status !== 'ready')
    await new Promise((resolve) => publisher.once('ready', resolve));
});
afterAll(async () => {
  await waiter.close();
  subscriber.disconnect();
  publisher.disconnect();
});

describe('completion waiter', () => {
  it('wakes every waiter of an id published from another connection, and only those', async () => {
    const a = waiter.wait('id-1', 10_000);
    const b = waiter.wait('id-1', 10_000);
    const other = waiter.wait('id-2', 300);
    expect(waiter.size()).toBe(3);
    await publishCompletion(publisher, prefix, 'id-1');
    await expect(Promise.all([a, b])).resolves.toEqual([true, true]);
    await expect(other).resolves.toBe(false);
    expect(waiter.size()).toBe(0);
  });

  it('removes listeners on timeout and on abort', async () => {
    const controller = new AbortController();
    const aborted = waiter.wait('id-3', 10_000, controller.signal);
    const timedOut = waiter.wait('id-4', 50);
    controller.abort();
    await expect(aborted).resolves.toBe(false);
    await expect(timedOut).resolves.toBe(false);
    expect(waiter.size()).toBe(0);
  });

  it('ignores messages for another prefix', async () => {
    const pending = waiter.wait('id-5', 300);
    await publishCompletion(publisher, `${prefix}x`, 'id-5');
    await expect(pending).resolves.toBe(false);
  });

  it('ends waits at once after close', async () => {
    const connection = createRedis(testRedisUrl(), 'blocking');
    const own = await createCompletionWaiter(connection, uniquePrefix('cw'));
    const pending = own.wait('id-6', 60_000);
    await own.close();
    await expect(pending).resolves.toBe(false);
    expect(own.closed).toBe(true);
    await expect(own.wait('id-7', 60_000)).resolves.toBe(false);
    connection.disconnect();
  });
});
