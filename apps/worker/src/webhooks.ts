import { Queue, Worker } from 'bullmq';
import type { Db } from '@xt/db';
import { parseAllowlist } from '@xt/fetcher';
import {
  catalogueProcessor,
  createRedis,
  DELIVER_WEBHOOK_JOB,
  WEBHOOK_BACKOFF,
  WEBHOOK_QUEUE,
} from '@xt/queue';
import type { Logger } from '@xt/runtime';
import { createDeliveryProcessor, createRelay, fairPerAccount, retryDelay } from '@xt/webhooks';
import type { WorkerConfig } from './config.ts';

/**
 * Webhook delivery in this process: the relay that moves recorded events into the delivery
 * queue, and that queue's own workers with their own connections and concurrency, apart from
 * the extraction jobs, so a receiver that is slow or down never holds up an extraction; and
 * within them, each account holds at most its share of the slots.
 */
export async function startWebhookDelivery(
  config: WorkerConfig,
  db: Db,
  logger: Logger,
): Promise<{ close(): Promise<void> } | undefined> {
  if (config.WEBHOOK_CONCURRENCY === 0) return undefined;
  const log = logger.child({ component: 'webhooks' });
  const delays = config.WEBHOOK_RETRY_DELAYS;
  const producer = createRedis(config.REDIS_URL, 'producer');
  const blocking = createRedis(config.REDIS_URL, 'blocking');
  const queue = new Queue(WEBHOOK_QUEUE, { connection: producer, prefix: config.QUEUE_PREFIX });
  queue.on('error', (err) => log.warn({ err }, 'webhook queue error'));

  const worker = new Worker(
    WEBHOOK_QUEUE,
    catalogueProcessor(WEBHOOK_QUEUE, {
      [DELIVER_WEBHOOK_JOB]: fairPerAccount(
        createDeliveryProcessor({
          db,
          allowlist: parseAllowlist(config.WEBHOOK_ALLOWLIST),
          timeoutMs: config.WEBHOOK_TIMEOUT_MS,
          logger: log,
        }),
        {
          perAccount: config.WEBHOOK_CONCURRENCY_PER_ACCOUNT,
          attemptMs: config.WEBHOOK_TIMEOUT_MS,
        },
      ),
    }),
    {
      connection: blocking,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.WEBHOOK_CONCURRENCY,
      name: `${config.WORKER_NAME}-webhooks`,
      settings: {
        backoffStrategy: (attemptsMade: number, type?: string) =>
          type === WEBHOOK_BACKOFF ? retryDelay(delays, attemptsMade) : 0,
      },
    },
  );
  worker.on('error', (err) => log.warn({ err }, 'webhook worker error'));
  const relay = createRelay({ db, queue, retries: delays.length, logger: log });
  const relayLoop = relay.start(config.WEBHOOK_RELAY_INTERVAL_MS);
  await worker.waitUntilReady();

  return {
    async close() {
      await relayLoop.stop();
      await worker.close();
      await queue.close();
      blocking.disconnect();
      producer.disconnect();
    },
  };
}
