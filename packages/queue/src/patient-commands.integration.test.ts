/**
 * A producer connection's command timeout counts the time this process could have read the
 * answer, not the time its event loop was held: a command answered while the loop was busy past
 * the timeout succeeds (ioredis's own timer called it timed out, and the callers then took Redis
 * for down), and a Redis that does not answer still times the command out.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl, whileLoopHeld } from '@xt/testkit';
import { startControlledRedis } from '@xt/testkit/faults';
import { createRedis, type RedisConnection } from './redis.ts';

let producer: RedisConnection;

async function ready(redis: RedisConnection): Promise<void> {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
}

beforeAll(async () => {
  producer = createRedis(testRedisUrl(), 'producer');
  await ready(producer);
});

afterAll(() => {
  producer?.disconnect();
});

describe('producer command timeout', () => {
  it('answers a command whose reply came while the event loop was held past the timeout', async () => {
    // The premise, on a connection with ioredis's plain timer alone.
    const plain = new Redis(testRedisUrl(), { commandTimeout: 1_000 });
    try {
      await plain.ping();
      const held = await whileLoopHeld(() => plain.ping(), 1_600);
      await expect(held.started).rejects.toThrow(/Command timed out/);
    } finally {
      plain.disconnect();
    }

    const held = await whileLoopHeld(() => producer.ping(), 1_600);
    await expect(held.started).resolves.toBe('PONG');
  });

  it('still times a command out when Redis does not answer', async () => {
    const redis = await startControlledRedis();
    const connection = createRedis(redis.url, 'producer');
    try {
      await ready(connection);
      redis.pause();
      await expect(connection.ping()).rejects.toThrow(/Command timed out/);
    } finally {
      redis.resume();
      connection.disconnect();
      await redis.stop();
    }
  }, 60_000);
});
