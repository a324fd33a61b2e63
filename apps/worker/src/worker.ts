import { Queue, Worker } from 'bullmq';
import { createBlobStore } from '@xt/blob-store';
import { createDb, runMigrations } from '@xt/db';
import { pipelineVersion } from '@xt/model/pipeline-version';
import {
  catalogueProcessor,
  createRedis,
  EXTRACT_JOB,
  EXTRACTION_QUEUE,
  extractionRetryDelay,
  WINDOW_JOB,
  isRedisUnavailable,
} from '@xt/queue';
import { processEnvironment, type WorkerConfig } from './config.ts';
import { createAppLogger, createDependencyOutages, errorSummary, type Logger } from '@xt/runtime';
import { bundleThumbnails } from './page-previews/bundle.ts';
import { pagePreviews } from './page-previews/index.ts';
import { SHUTDOWN_REASON } from './job/job-run.ts';
import { createProcessor } from './processor.ts';
import { setUpModels } from './models/setup.ts';
import { modelProbeMetrics } from './ops/model-metrics.ts';
import { createWindowProcessor } from './window-processor.ts';
import { bundleStore } from './job/split/store.ts';
import { windowStore } from './job/windows/store.ts';
import { jobLifecycle } from './job/lifecycle.ts';
import { jobReuse } from './job/reuse-step.ts';
import { jobPreparations } from './job/preparations.ts';
import { batchRounds, createReconciler } from '@xt/extractions';
import { chromiumExecutable, createSourcePreparer, type PreviewTask } from '@xt/sources';
import { startUploadSweep } from './upload-sweep.ts';
import { batchProvider } from './batch/provider.ts';
import { createBatchRunner } from './batch/runner.ts';
import { startBatchSweep } from './batch/sweep.ts';
import { startWebhookDelivery } from './webhooks.ts';
import { startWorkerOps } from './ops/start-ops.ts';
import { createWorkerMetrics } from './ops/worker-metrics.ts';
import { startLoopWatchdog } from './ops/loop-watchdog.ts';
import {
  checkChromium,
  checkConverter,
  readinessOf,
  type StartupCheck,
  type WorkerReadiness,
} from './startup-checks.ts';

export interface RunningWorker {
  /** What the start-up checks found (for the readiness endpoint). */
  readiness(): WorkerReadiness;
  close(): Promise<void>;
}

/**
 * Wires one worker process: queue consumer, source preparation, model client, reconciler,
 * upload sweep.
 */
export async function startWorker(
  config: WorkerConfig,
  logger: Logger = createAppLogger(config, config.WORKER_NAME),
): Promise<RunningWorker> {
  const chromiumCheck = checkChromium(chromiumExecutable(config.CHROMIUM_PATH), {
    environment: processEnvironment(),
    user: config.BROWSER_USER,
    launcher: config.HELPER_LAUNCHER,
  });
  await runMigrations(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL);
  // Connection trouble is logged once per outage, not once per reconnect attempt or job.
  const outages = createDependencyOutages(logger);
  const db = createDb(config.DATABASE_URL, {
    max: config.DB_POOL_MAX,
    applicationName: config.WORKER_NAME,
    preparedStatements: config.DB_PREPARED_STATEMENTS,
    ...outages.postgresEvents,
  });
  const onQueueError = (err: Error) => {
    if (isRedisUnavailable(err)) outages.redis.failed(err);
    else logger.warn({ error: errorSummary(err) }, 'queue error');
  };
  const redis = createRedis(config.REDIS_URL, 'producer', outages.redisEvents);
  const blocking = createRedis(config.REDIS_URL, 'blocking', outages.redisEvents);
  const queue = new Queue(EXTRACTION_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
  queue.on('error', onQueueError);

  // Checked in the background: the worker takes jobs meanwhile, and a webpage job waits for
  // the answer. Readiness stays false until every check has answered.
  const checks: StartupCheck[] = [];
  const chromium = chromiumCheck.then((check) => {
    // The isolation line (docs/security.md#browser-isolation): a warning while the sandbox is
    // off, or while Chromium runs as the worker's user though BROWSER_USER named another.
    const fields = { check: check.name, ...check.isolation };
    if (!check.ok) logger.error(fields, check.message);
    else if (check.isolation?.sandbox.startsWith('off') || check.isolation?.userNotApplied)
      logger.warn(fields, check.message);
    else logger.info(fields, check.message);
    checks.push(check);
    return check;
  });
  const expectedChecks = 1;
  // The converter's isolation line (docs/security.md#document-converter-isolation); a warning
  // when it shares the worker's network or CONVERTER_USER could not be applied. Not a
  // readiness check: other kinds do not need it.
  void checkConverter({
    executable: config.CONVERTER_PATH,
    user: config.CONVERTER_USER,
    launcher: config.HELPER_LAUNCHER,
    memoryMb: config.CONVERT_MAX_MEMORY_MB,
    environment: processEnvironment(),
    requireIsolation: config.CONVERT_REQUIRE_ISOLATION,
  }).then((check) => {
    const fields = { check: check.name, ...check.isolation };
    if (!check.ok) logger.error(fields, check.message);
    else if (check.isolation?.network.startsWith('shared') || check.isolation?.userNotApplied)
      logger.warn(fields, check.message);
    else logger.info(fields, check.message);
  });

  // Up before the queue consumer, so /readyz can say what a worker stuck starting waits for.
  const metrics = createWorkerMetrics();
  const watchdog = startLoopWatchdog({ thresholdMs: config.EVENT_LOOP_BLOCKED_MS });
  let stopping = false;
  const ops = await startWorkerOps({
    config,
    logger,
    metrics,
    redis,
    pool: db.pool,
    chromium,
    stopping: () => stopping,
    loopHealthy: () => watchdog.healthy(),
  });

  if (!config.MODEL_ENDPOINTS && !config.OPENAI_API_KEY)
    logger.warn('OPENAI_API_KEY is not set: model calls will be refused by the provider');
  const probeMetrics = modelProbeMetrics(metrics.registry);
  const models = setUpModels(
    config,
    redis,
    {
      timeoutMs: config.MODEL_TIMEOUT_MS,
      maxRetries: config.MODEL_MAX_RETRIES,
      maxInputTokens: config.MODEL_MAX_INPUT_TOKENS,
      maxExtractionInputTokens: config.MAX_INPUT_TOKENS_PER_EXTRACTION,
      maxExtractionCalls: config.MAX_MODEL_CALLS_PER_EXTRACTION,
      concurrency: config.MODEL_CHUNK_CONCURRENCY,
      maxRepairs: config.MODEL_MAX_REPAIRS,
      maxContinuations: config.MODEL_MAX_CONTINUATIONS,
      promptCacheKey:
        config.MODEL_PROMPT_CACHE_KEY === 'auto'
          ? undefined
          : config.MODEL_PROMPT_CACHE_KEY === 'true',
      onCall: (call) => metrics.modelCall(call),
    },
    logger,
    (route, found) => probeMetrics.probed(route, found),
    (endpoint, providerModel, limit) => {
      for (const name of config.models.names) {
        const route = config.models.route(name);
        if (route?.endpoint.name === endpoint.name && route.providerModel === providerModel)
          probeMetrics.learned(route, limit);
      }
    },
  );
  const model = models.clients.primary;
  const store = createBlobStore(config, db.db);
  const sources = createSourcePreparer(config, logger, {
    environment: processEnvironment(),
    chromium,
    time: metrics.time,
    uploads: { store, maxBytes: config.MAX_UPLOAD_BYTES },
  });
  metrics.watch(() => sources.stats());
  const lifecycle = jobLifecycle(db.db, redis, config.QUEUE_PREFIX);
  const previewDeps = {
    db: db.db,
    store,
    render: (task: PreviewTask) => sources.renderPreviews(task),
    maxImagePixels: config.MAX_IMAGE_PIXELS,
    logger,
  };
  const previews = pagePreviews(previewDeps);
  // Windows are retried like extractions: the same attempts and backoff.
  const windows = windowStore(db.db, queue, store, {
    attempts: config.JOB_ATTEMPTS,
    backoffMs: config.JOB_BACKOFF_MS,
  });
  const rounds = batchRounds(db.db);
  const provider = batchProvider(model.openai);
  const processor = createProcessor({
    batch: createBatchRunner({
      model,
      provider,
      rounds,
      settings: {
        windowMs: config.BATCH_WINDOW_HOURS * 3_600_000,
        pollMs: config.BATCH_POLL_MS,
        mode: config.BATCH_INTERFACE,
      },
      logger,
    }),
    lifecycle,
    windows: { store: windows, splitPages: config.SPLIT_PAGES },
    bundles: {
      // Children are retried like extractions: the same attempts and backoff.
      store: bundleStore(db.db, queue, store, {
        attempts: config.JOB_ATTEMPTS,
        backoffMs: config.JOB_BACKOFF_MS,
      }),
      blobs: store,
      classifyPages: config.SPLIT_CLASSIFY_PAGES,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      thumbnails: bundleThumbnails(previewDeps),
    },
    reuse: jobReuse(
      { db: db.db, store },
      {
        pipelineVersion: pipelineVersion(),
        namespace: config.CACHE_NAMESPACE,
      },
    ),
    preparations: jobPreparations(
      db.db,
      {
        retentionMs: config.UPLOAD_RETENTION_HOURS * 3_600_000,
        maxEntryBytes: config.PREP_CACHE_MAX_ENTRY_BYTES,
        maxAccountBytes: config.PREP_CACHE_ACCOUNT_BYTES,
        reading: {
          pdfMode: config.PDF_MODE,
          maxPdfPages: config.MAX_PDF_PAGES,
          maxPdfImagePages: config.MAX_PDF_IMAGE_PAGES,
          maxImagePixels: config.MAX_IMAGE_PIXELS,
          ocrTimeoutMs: config.OCR_TIMEOUT_MS,
          ocrLanguages: config.OCR_LANGUAGES,
        },
      },
      logger,
    ),
    models,
    prices: config.MODEL_PRICES,
    sources,
    logger,
    jobTimeoutMs: config.JOB_TIMEOUT_MS,
    maxAttempts: config.JOB_ATTEMPTS,
    modelConfigured: Boolean(
      config.MODEL_ENDPOINTS || config.OPENAI_API_KEY || config.OPENAI_BASE_URL,
    ),
    metrics,
    previews,
  });
  const windowProcessor = createWindowProcessor({
    lifecycle,
    windows,
    models,
    sources,
    logger,
    jobTimeoutMs: config.JOB_TIMEOUT_MS,
    previews,
    prices: config.MODEL_PRICES,
  });

  const worker = new Worker(
    EXTRACTION_QUEUE,
    catalogueProcessor(EXTRACTION_QUEUE, {
      [EXTRACT_JOB]: processor,
      [WINDOW_JOB]: windowProcessor,
    }),
    {
      connection: blocking,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.WORKER_CONCURRENCY,
      lockDuration: config.LOCK_DURATION_MS,
      stalledInterval: config.STALLED_INTERVAL_MS,
      // A job whose worker died is re-delivered once the lock lapses; twice is a poison job.
      maxStalledCount: 2,
      name: config.WORKER_NAME,
      settings: {
        backoffStrategy: (attemptsMade, _type, err) =>
          extractionRetryDelay(attemptsMade, config.JOB_BACKOFF_MS, err),
      },
    },
  );
  worker.on('error', onQueueError);

  const reconciler = createReconciler({
    db: db.db,
    queue,
    redis,
    prefix: config.QUEUE_PREFIX,
    policy: { attempts: config.JOB_ATTEMPTS, backoffMs: config.JOB_BACKOFF_MS },
    afterMs: config.RECONCILE_AFTER_MS,
    staleProcessingMs: config.RECONCILE_STALE_MS,
    logger,
  });
  const reconcileLoop = reconciler.start(config.RECONCILE_INTERVAL_MS);
  const uploadSweep = startUploadSweep(
    { db: db.db, store, logger },
    {
      retentionMs: config.UPLOAD_RETENTION_HOURS * 3_600_000,
      orphanGraceMs: config.UPLOAD_ORPHAN_GRACE_MINUTES * 60_000,
    },
    config.UPLOAD_SWEEP_INTERVAL_MS,
  );
  // Cancels the batches of deleted extractions and deletes their files at the provider: no poll
  // looks at them once their job is gone.
  const batchSweep = startBatchSweep(
    { rounds, provider, logger },
    Math.min(config.BATCH_POLL_MS, 60_000),
  );
  const webhooks = await startWebhookDelivery(config, db.db, logger);
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  return {
    readiness: () => readinessOf(checks, expectedChecks),
    close: () =>
      (closing ??= (async () => {
        stopping = true;
        await reconcileLoop.stop();
        await uploadSweep.stop();
        await batchSweep.stop();
        await webhooks?.close();
        // Takes no new jobs and waits for the running ones; those still running when the grace
        // period ends are aborted and handed back to the front of the queue (see the processor),
        // so another worker starts them at once instead of after their lock lapses.
        const drained = worker.close();
        const started = Date.now();
        const grace = setTimeout(() => {
          logger.warn(
            { graceSeconds: config.WORKER_SHUTDOWN_GRACE_SECONDS },
            'shutdown grace over; handing running jobs back',
          );
          worker.cancelAllJobs(SHUTDOWN_REASON);
        }, config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000);
        await drained;
        clearTimeout(grace);
        logger.info({ drainMs: Date.now() - started }, 'worker drained');
        await sources.close();
        await queue.close().catch(() => undefined);
        blocking.disconnect();
        redis.disconnect();
        await db.close();
        await ops?.close();
        watchdog.stop();
      })()),
  };
}
