import { Queue, Worker } from 'bullmq';
import { createDb, runMigrations } from '@xt/db';
import { createModelClient } from '@xt/model';
import { createRedis, EXTRACTION_QUEUE } from '@xt/queue';
import type { WorkerConfig } from './config.ts';
import { createLogger, type Logger } from '@xt/runtime';
import { createProcessor } from './processor.ts';
import { createReconciler } from './reconciler.ts';
import { createSourceHandlers } from './sources/handlers.ts';
import { createSourcePreparer } from './sources/index.ts';
import { startWebhookDelivery } from './webhooks.ts';

export interface RunningWorker {
  close(): Promise<void>;
}

/** Wires one worker process: queue consumer, source preparation, model client, reconciler. */
export async function startWorker(
  config: WorkerConfig,
  logger: Logger = createLogger(config.LOG_LEVEL, config.WORKER_NAME),
): Promise<RunningWorker> {
  await runMigrations(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, {
    max: config.DB_POOL_MAX,
    applicationName: config.WORKER_NAME,
  });
  const redis = createRedis(config.REDIS_URL, 'producer');
  const blocking = createRedis(config.REDIS_URL, 'blocking');
  const queue = new Queue(EXTRACTION_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
  queue.on('error', (err) => logger.warn({ err }, 'queue error'));

  if (!config.OPENAI_API_KEY)
    logger.warn('OPENAI_API_KEY is not set: model calls will be refused by the provider');
  const model = createModelClient({
    apiKey: config.OPENAI_API_KEY || 'not-set',
    baseURL: config.OPENAI_BASE_URL,
    modelMap: config.MODEL_MAP,
    timeoutMs: config.MODEL_TIMEOUT_MS,
    maxRetries: config.MODEL_MAX_RETRIES,
    maxInputTokens: config.MODEL_MAX_INPUT_TOKENS,
    concurrency: config.MODEL_CHUNK_CONCURRENCY,
    maxRepairs: config.MODEL_MAX_REPAIRS,
    promptCacheKey:
      config.MODEL_PROMPT_CACHE_KEY === 'auto'
        ? undefined
        : config.MODEL_PROMPT_CACHE_KEY === 'true',
  });
  const sources = createSourcePreparer(createSourceHandlers(config, logger));
  const processor = createProcessor({
    db: db.db,
    redis,
    prefix: config.QUEUE_PREFIX,
    model,
    sources,
    logger,
    jobTimeoutMs: config.JOB_TIMEOUT_MS,
    modelConfigured: Boolean(config.OPENAI_API_KEY || config.OPENAI_BASE_URL),
  });

  const worker = new Worker(EXTRACTION_QUEUE, processor, {
    connection: blocking,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    lockDuration: config.LOCK_DURATION_MS,
    stalledInterval: config.STALLED_INTERVAL_MS,
    // A job whose worker died is re-delivered once the lock lapses; twice is a poison job.
    maxStalledCount: 2,
    name: config.WORKER_NAME,
  });
  worker.on('error', (err) => logger.warn({ err }, 'worker error'));

  const reconciler = createReconciler({
    db: db.db,
    queue,
    redis,
    prefix: config.QUEUE_PREFIX,
    policy: { attempts: config.JOB_ATTEMPTS, backoffMs: config.JOB_BACKOFF_MS },
    afterMs: config.RECONCILE_AFTER_MS,
    staleProcessingMs: config.JOB_TIMEOUT_MS + config.LOCK_DURATION_MS,
    logger,
  });
  reconciler.start(config.RECONCILE_INTERVAL_MS);
  const webhooks = await startWebhookDelivery(config, db.db, logger);
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  return {
    close: () =>
      (closing ??= (async () => {
        await reconciler.stop();
        await webhooks?.close();
        // Lets running jobs finish (their results are written) before the process exits.
        await worker.close();
        await sources.close();
        await queue.close();
        blocking.disconnect();
        redis.disconnect();
        await db.close();
      })()),
  };
}
