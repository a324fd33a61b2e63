import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { testRedisUrl, uniquePrefix } from '@xt/testkit';
import { flushPrefix } from '@xt/testkit/env';
import { redisEndpointSlots } from './slots.ts';

let redis: Redis[];
let prefix: string;
beforeAll(() => {
  prefix = `{${uniquePrefix('slots')}}`;
  // one connection per "worker process"
  redis = [0, 1, 2].map(() => new Redis(testRedisUrl()));
});
afterAll(async () => {
  for (const r of redis) r.disconnect();
  await flushPrefix(testRedisUrl(), `semaphore:${prefix}`);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('endpoint slots', () => {
  it('never lets more calls than the endpoint has slots be in flight, across processes', async () => {
    const processes = redis.map((r) => redisEndpointSlots(r, prefix, { waitMs: 30_000 }));
    let inFlight = 0;
    let most = 0;
    const call = async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(30);
      inFlight -= 1;
      return 'done';
    };
    const calls = Array.from({ length: 12 }, (_, i) =>
      processes[i % processes.length]!.run({ endpoint: 'local', limit: 2 }, call),
    );
    expect(await Promise.all(calls)).toEqual(Array(12).fill('done'));
    expect(most).toBe(2);
  });

  it('lets every call through at once when the limit is unknown', async () => {
    const slots = redisEndpointSlots(redis[0]!, prefix, { waitMs: 1_000 });
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        slots.run({ endpoint: 'open', limit: undefined }, async () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await sleep(20);
          inFlight -= 1;
        }),
      ),
    );
    expect(most).toBe(5);
  });

  it('gives up waiting as a retryable model failure naming the endpoint', async () => {
    const slots = redisEndpointSlots(redis[1]!, prefix, { waitMs: 300 });
    const held = slots.run({ endpoint: 'busy', limit: 1 }, () => sleep(1_500));
    await sleep(50);
    await expect(
      slots.run({ endpoint: 'busy', limit: 1 }, () => Promise.resolve()),
    ).rejects.toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      retryable: true,
      message: expect.stringContaining('"busy"'),
    });
    await held;
  });

  it('names the learned limit it last waited under when it gives up, not the one it started with', async () => {
    const slots = redisEndpointSlots(redis[2]!, prefix, { waitMs: 600 });
    // Started under 2, both taken; learned 1 while waiting.
    const taken = slots.run({ endpoint: 'shrinking2', limit: 2 }, () => sleep(2_000));
    const other = slots.run({ endpoint: 'shrinking2', limit: 2 }, () => sleep(2_000));
    await sleep(50);
    await expect(
      slots.run({ endpoint: 'shrinking2', limit: 2, relimit: () => Promise.resolve(1) }, () =>
        Promise.resolve(),
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining('(1 at once)') });
    await Promise.all([taken, other]);
  });

  it('keeps a learned limit per model, read again while calls wait, and counts its holders', async () => {
    const processes = redis.map((r) => redisEndpointSlots(r, prefix, { waitMs: 30_000 }));
    let limit = 3;
    const seen: number[] = [];
    let inFlight = 0;
    let most = 0;
    const call = async (holders: () => Promise<number>) => {
      inFlight += 1;
      seen.push(await holders());
      await sleep(50);
      // from here on every waiting call must find the lower limit
      limit = 1;
      most = seen.length > 3 ? Math.max(most, inFlight) : most;
      inFlight -= 1;
    };
    await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        processes[i % processes.length]!.run(
          { endpoint: 'local', model: 'qwen', limit, relimit: () => Promise.resolve(limit) },
          call,
        ),
      ),
    );
    // the last of the first three to take a slot counts all three
    expect(Math.max(...seen.slice(0, 3))).toBe(3);
    expect(seen.slice(3)).toEqual(Array(6).fill(1));
    expect(most).toBe(1);
  });
});
