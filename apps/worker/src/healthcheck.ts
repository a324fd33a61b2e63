/**
 * Container healthcheck (`node apps/worker/dist/healthcheck.js`): healthy while this host's
 * worker is connected to Redis as a consumer of the extraction queue. A worker has no HTTP port;
 * BullMQ names each consumer's connection, so Redis's client list is the evidence.
 */
import os from 'node:os';
import { Queue } from 'bullmq';
import { EXTRACTION_QUEUE, createRedis } from '@xt/queue';
import { loadConfig } from './config.ts';

/** BullMQ's connection name ends in `:w:<worker name>`; the default name starts with the host. */
export function isWorkerOfHost(rawName: string, host: string): boolean {
  return rawName.includes(`:w:${host}-`);
}

export async function workerOfHostConnected(
  redisUrl: string,
  prefix: string,
  host: string,
): Promise<boolean> {
  const redis = createRedis(redisUrl, 'producer');
  const queue = new Queue(EXTRACTION_QUEUE, { connection: redis, prefix });
  try {
    const workers = await queue.getWorkers();
    return workers.some((w) => isWorkerOfHost(w.rawname ?? '', host));
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const config = loadConfig();
  const ok = await workerOfHostConnected(
    config.REDIS_URL,
    config.QUEUE_PREFIX,
    os.hostname(),
  ).catch((err: unknown) => {
    console.error(`healthcheck: ${(err as Error).message}`);
    return false;
  });
  if (!ok) console.error(`healthcheck: no worker of ${os.hostname()} is connected to the queue`);
  process.exit(ok ? 0 : 1);
}
