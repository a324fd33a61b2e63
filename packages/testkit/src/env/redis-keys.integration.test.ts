import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { flushPrefix, redisKeyPrefix } from './redis-keys.ts';

const redis = new Redis(inject('testRedisUrl'), { lazyConnect: true });
beforeAll(async () => {
  await redis.connect();
});
afterAll(() => {
  redis.disconnect();
});

describe('redisKeyPrefix', () => {
  it('differs on every call and carries no glob or separator characters', () => {
    const prefixes = new Set(Array.from({ length: 100 }, () => redisKeyPrefix()));
    expect(prefixes.size).toBe(100);
    for (const prefix of prefixes) expect(prefix).toMatch(/^[a-z0-9-]+$/);
  });
});

describe('flushPrefix', () => {
  it('deletes every key with the prefix, across many SCAN pages, and nothing else', async () => {
    const mine = redisKeyPrefix();
    const neighbour = redisKeyPrefix();
    const pipeline = redis.pipeline();
    for (let i = 0; i < 2_500; i += 1) pipeline.set(`${mine}:key:${i}`, 'x');
    pipeline.set(`${neighbour}:key`, 'kept');
    await pipeline.exec();

    expect(await flushPrefix(inject('testRedisUrl'), mine)).toBe(2_500);
    expect(await redis.exists(`${mine}:key:0`, `${mine}:key:2499`)).toBe(0);
    expect(await redis.get(`${neighbour}:key`)).toBe('kept');
    await flushPrefix(inject('testRedisUrl'), neighbour);
  });

  it('treats glob characters in the prefix literally', async () => {
    const base = redisKeyPrefix();
    await redis.set(`${base}*:a`, '1');
    await redis.set(`${base}x:a`, '2');
    expect(await flushPrefix(inject('testRedisUrl'), `${base}*`)).toBe(1);
    expect(await redis.get(`${base}x:a`)).toBe('2');
    await flushPrefix(inject('testRedisUrl'), base);
  });

  it('refuses an empty prefix, which would wipe the whole database', async () => {
    await expect(flushPrefix(inject('testRedisUrl'), '')).rejects.toThrow(/non-empty/);
  });
});
