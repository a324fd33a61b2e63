import express, { Router, type Express } from 'express';
import type { Queue } from 'bullmq';
import type { RedisConnection } from '@xt/queue';
import type { Logger } from 'pino';
import type { CompletionWaiter } from '@xt/queue';
import type { DbHandle } from '@xt/db';
import './http/requests/types.ts';
import type { ApiConfig } from './config.ts';
import { authenticate } from './auth/authenticate.ts';
import { accessLog } from './http/requests/access-log.ts';
import { errorHandler, notFoundHandler } from './http/errors/error-handler.ts';
import { rateLimiter } from './http/limits/rate-limit.ts';
import { requestId } from './http/requests/request-id.ts';
import { optionsAsEnvelope } from './http/requests/options.ts';
import { knownRoutes, routeTable } from './http/requests/known-routes.ts';
import { openApiDocument } from './openapi/document.ts';
import { dashboardRouter } from './session-api/router.ts';
import { queueBoardRoute } from './ops/queue-board.ts';
import { healthRoutes } from './ops/health.ts';
import { createMetrics, metricsRoute } from './ops/metrics.ts';
import { docsRoutes } from './ops/openapi.ts';
import type { KeyCache } from '@xt/accounts';
import { SchemaService } from './schemas/service.ts';
import { schemaRoutes } from './schemas/routes.ts';
import { suggestRoutes } from './schemas/suggest/routes.ts';
import { SuggestService } from './schemas/suggest/service.ts';
import { ExtractionService } from './extractions/service.ts';
import { extractionRoutes } from './extractions/routes.ts';
import { reviewQueueRoutes } from './reviews/routes.ts';
import { ReviewService } from './reviews/service.ts';
import { WebhookService } from './webhooks/service.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { listedCapabilities, modelRoutes } from './models/routes.ts';
import { IdempotencyKeys } from './idempotency/store.ts';
import { createBlobStore } from '@xt/blob-store';
import { UploadTempDir } from './uploads/temp-files.ts';

export interface AppDeps {
  config: ApiConfig;
  db: DbHandle;
  redis: RedisConnection;
  queue: Queue;
  waiter: CompletionWaiter;
  /** API keys this process has authenticated (see key-revocations.ts). */
  keys: KeyCache;
  logger: Logger;
  /** True once the process is shutting down (readiness then answers 503). */
  stopping?: () => boolean;
}

export function createApp(deps: AppDeps): Express {
  const { config, db, redis, queue, waiter, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('json spaces', 0);
  app.locals.publicOrigin = config.PUBLIC_URL;

  const metrics = createMetrics({ queue, waiters: () => waiter.size() });
  app.use((req, _res, next) => {
    req.receivedAt = performance.now();
    next();
  });
  app.use(requestId(logger));
  app.use(accessLog(metrics));
  app.use(knownRoutes(routeTable(openApiDocument().paths ?? {})));
  app.use(optionsAsEnvelope);

  // Operational routes: outside /v1 and unauthenticated (docs/api.md#operational-routes).
  app.use(
    healthRoutes({ pool: db.pool, redis, ...(deps.stopping ? { stopping: deps.stopping } : {}) }),
  );
  app.use(metricsRoute(metrics, config.METRICS_TOKEN));
  app.use(docsRoutes());
  const queueBoard = queueBoardRoute(queue, {
    user: config.ADMIN_USER,
    password: config.ADMIN_PASSWORD,
    writable: config.ADMIN_QUEUES_WRITABLE,
    maxFailures: config.ADMIN_AUTH_MAX_FAILURES,
  });
  if (queueBoard) app.use(queueBoard);

  const keys = new IdempotencyKeys(config.IDEMPOTENCY_KEY_TTL_HOURS);
  const store = createBlobStore(config, db.db);
  const extractions = new ExtractionService({
    db: db.db,
    queue,
    waiter,
    config,
    keys,
    logger,
    store,
  });
  const rateLimit = rateLimiter({
    redis,
    prefix: config.QUEUE_PREFIX,
    max: config.RATE_LIMIT_MAX,
    accountMax: config.RATE_LIMIT_ACCOUNT_MAX,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    logger,
  });
  const uploadTemp = new UploadTempDir(config.UPLOAD_TMP_DIR);
  const resourceRouters = [
    suggestRoutes(new SuggestService(extractions, config.SUGGEST_WAIT_SECONDS), config, uploadTemp),
    schemaRoutes(new SchemaService(db.db, keys, config.MAX_SCHEMAS_PER_ACCOUNT), '/v1'),
    extractionRoutes(extractions, config, uploadTemp),
    webhookRoutes(new WebhookService(db.db, config.MAX_WEBHOOKS_PER_ACCOUNT), {
      basePath: '/v1',
      allowlist: config.WEBHOOK_ALLOWLIST,
    }),
    modelRoutes(config.models, listedCapabilities(redis, config.QUEUE_PREFIX)),
    reviewQueueRoutes(new ReviewService(db.db), store),
  ];

  // People: the dashboard, signed in with a session, over the same resource routers.
  app.use(
    '/dashboard',
    dashboardRouter({
      config,
      db: db.db,
      store,
      redis,
      logger,
      resources: resourceRouters,
      rateLimit,
    }),
  );

  const api = Router();
  // Only resource paths are authenticated, so an unknown path is a 404 with or without a key.
  const resources = ['/schemas', '/extractions', '/webhooks', '/models', '/reviews'];
  api.use(resources, authenticate(deps.keys));
  api.use(resources, rateLimit);
  for (const resource of resourceRouters) api.use(resource);

  // Same handlers with and without the version segment (docs/api.md#paths-and-versioning); /v1 is canonical.
  app.use('/v1', api);
  app.use(api);

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
