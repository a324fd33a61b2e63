import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { testRedisUrl, uniquePrefix } from '@xt/testkit';
import { flushPrefix } from '@xt/testkit/env';
import { redisLearnedLimits } from './learned-limit-store.ts';

let redis: Redis[];
let prefix: string;
beforeAll(() => {
  prefix = `{${uniquePrefix('learned')}}`;
  // one connection per "worker process"
  redis = [0, 1, 2].map(() => new Redis(testRedisUrl()));
});
afterAll(async () => {
  for (const r of redis) r.disconnect();
  await flushPrefix(testRedisUrl(), prefix);
});

const bounds = { start: 1, min: 1, max: 64 };
const atBaseline = (inFlight: number) => ({
  ms: 1_000,
  promptTokens: 0,
  completionTokens: 100,
  inFlight,
  round: 0,
});

describe('learned limits in Redis', () => {
  it('is one limit for every process: lessons taught at once are all kept', async () => {
    const processes = redis.map((r) => redisLearnedLimits(r, prefix, 60, bounds));
    // 12 calls at the limit, near the baseline, finishing at once in three processes
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        processes[i % 3]!.learn('local', 'qwen', atBaseline(64)),
      ),
    );
    const kept = await processes[0]!.read('local', 'qwen');
    expect(kept?.samples).toBe(12);
    // each lesson folded into the one before it: 1 + 2 + 3 + 4 calls at the limit grow it to 5
    expect(kept).toMatchObject({ limit: 5, good: 2 });
    expect(await processes[1]!.read('local', 'other')).toBeUndefined();
    expect(await redis[0]!.ttl(`${prefix}:models:local:qwen:learned-slots`)).toBeGreaterThan(0);
  });
});
