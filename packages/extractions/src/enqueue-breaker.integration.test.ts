/**
 * The create's enqueue outlasts an event loop held past its deadline (what 20 large JSON bodies
 * parsed at once do to the API): it succeeds, a little later, and the breaker stays closed.
 * Before, the deadline's plain timer expired first, the enqueue was counted a failure, and every
 * create for the next five seconds skipped Redis although Redis was fine.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, EXTRACTION_QUEUE, type RedisConnection } from '@xt/queue';
import { testRedisUrl, uniquePrefix, whileLoopHeld } from '@xt/testkit';
import { createEnqueueBreaker } from './enqueue-breaker.ts';

const policy = { attempts: 1, backoffMs: 10 };
let connection: RedisConnection;
let queue: Queue;

beforeAll(async () => {
  connection = createRedis(testRedisUrl(), 'producer');
  queue = new Queue(EXTRACTION_QUEUE, { connection, prefix: uniquePrefix('enqueue') });
  await queue.waitUntilReady();
});

afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  connection?.disconnect();
});

describe('the enqueue breaker on a busy event loop', () => {
  it('enqueues across a loop held past the deadline, and stays closed', async () => {
    const enqueue = createEnqueueBreaker(queue);
    expect(await enqueue({ extractionId: randomUUID() }, policy)).toEqual({ ok: true });

    const heldId = randomUUID();
    const held = await whileLoopHeld(() => enqueue({ extractionId: heldId }, policy), 2_500);
    expect(await held.started).toEqual({ ok: true });
    expect(await queue.getJob(heldId)).toBeDefined();

    // Closed: the next create goes to Redis rather than to the reconciler.
    const nextId = randomUUID();
    expect(await enqueue({ extractionId: nextId }, policy)).toEqual({ ok: true });
    expect(await queue.getJob(nextId)).toBeDefined();
  });
});
