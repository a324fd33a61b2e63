/**
 * A replay of a create whose extraction is still unfinished gives it its job again, when the
 * job is gone (the first process died before enqueueing, or Redis lost it), with the priority a
 * create of that account would get (docs/security.md#fair-scheduling). Before, the job carried
 * none, which BullMQ runs ahead of every prioritised job.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, EXTRACTION_QUEUE, type RedisConnection } from '@xt/queue';
import { startTestApi, type TestApi } from '../../test/start-api.ts';

let api: TestApi;
let connection: RedisConnection;
let queue: Queue;

beforeAll(async () => {
  // No worker: every extraction stays pending, and so does its job.
  api = await startTestApi();
  connection = createRedis(api.config.REDIS_URL, 'producer');
  queue = new Queue(EXTRACTION_QUEUE, { connection, prefix: api.prefix });
});

afterAll(async () => {
  await queue?.close();
  connection?.disconnect();
  await api?.close();
});

describe('an Idempotency-Key replay of an unfinished extraction', () => {
  it("enqueues its lost job with the account's priority", async () => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: {
        name: 'Replay',
        structure: { type: 'object', properties: { a: { type: 'string' } } },
      },
    });
    const create = (source: string, key?: string) =>
      api.request('POST', '/v1/extractions', {
        json: { schema_id: schema.body.data.id, type: 'text', source },
        headers: { prefer: 'respond-async', ...(key ? { 'idempotency-key': key } : {}) },
      });

    const first = await create('the one replayed', 'replay-priority-1');
    expect(first.status).toBe(202);
    const id = first.body.data.id as string;
    expect(await queue.remove(id)).toBe(1);
    for (const n of [1, 2]) expect((await create(`another ${n}`)).status).toBe(202);

    const replay = await create('the one replayed', 'replay-priority-1');
    expect(replay.status).toBe(202);
    expect(replay.body.data.id).toBe(id);
    // Three unfinished extractions of the account, this one among them.
    expect((await queue.getJob(id))?.opts.priority).toBe(3);
  });
});
