import { Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTRACTION_QUEUE, createRedis } from '@xt/queue';
import { testRedisUrl, uniquePrefix } from '@xt/testkit';
import { isWorkerOfHost, workerOfHostConnected } from './healthcheck.ts';

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.close();
  worker = undefined;
});

describe('worker healthcheck', () => {
  it('matches the host part of a BullMQ connection name, not a longer host', () => {
    expect(isWorkerOfHost('xt:ZXh0cmFjdGlvbnM=:w:abc123-1', 'abc123')).toBe(true);
    expect(isWorkerOfHost('xt:ZXh0cmFjdGlvbnM=:w:abc1234-1', 'abc123')).toBe(false);
    expect(isWorkerOfHost('xt:ZXh0cmFjdGlvbnM=:w:abc123-1-webhooks', 'other')).toBe(false);
  });

  it('is healthy while a worker of this host consumes the queue, and not after it closes', async () => {
    const prefix = uniquePrefix('hc');
    const connection = createRedis(testRedisUrl(), 'blocking');
    worker = new Worker(EXTRACTION_QUEUE, () => Promise.resolve(), {
      connection,
      prefix,
      name: 'host-under-test-1',
    });
    await worker.waitUntilReady();
    expect(await workerOfHostConnected(testRedisUrl(), prefix, 'host-under-test')).toBe(true);
    expect(await workerOfHostConnected(testRedisUrl(), prefix, 'another-host')).toBe(false);
    await worker.close();
    worker = undefined;
    connection.disconnect();
    expect(await workerOfHostConnected(testRedisUrl(), prefix, 'host-under-test')).toBe(false);
  });
});
