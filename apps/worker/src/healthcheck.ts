/**
 * Container healthcheck (`node apps/worker/dist/healthcheck.js`): healthy while this host's
 * worker is connected to Redis as a consumer of the extraction queue (BullMQ names each
 * consumer's connection, so Redis's client list is the evidence) and, when its ops port is on,
 * its event loop turns: /healthz answers 200 in time. A loop blocked by a job still holds its
 * Redis connection, so the first check alone would call a frozen worker healthy.
 */
import os from 'node:os';
import { Queue } from 'bullmq';
import { EXTRACTION_QUEUE, createRedis } from '@xt/queue';
import { loadConfig, opsPort } from './config.ts';

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

/** True when the worker's /healthz answers 200 within `timeoutMs`. */
export async function loopAnswers(opsUrl: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(`${opsUrl}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
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
  const port = opsPort(config);
  const host = ['0.0.0.0', '::'].includes(config.WORKER_METRICS_HOST)
    ? '127.0.0.1'
    : config.WORKER_METRICS_HOST;
  const turning =
    port === undefined ||
    (await loopAnswers(`http://${host.includes(':') ? `[${host}]` : host}:${port}`, 5_000));
  if (!turning)
    console.error('healthcheck: the worker does not answer /healthz (event loop blocked?)');
  process.exit(ok && turning ? 0 : 1);
}
