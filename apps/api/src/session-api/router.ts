import { Router, type RequestHandler } from 'express';
import type { RedisConnection } from '@xt/queue';
import type { Logger } from 'pino';
import type { SessionLifetime } from '@xt/accounts';
import { dashboardAssetsDir } from '@xt/dashboard';
import type { BlobStore } from '@xt/blob-store';
import type { Db } from '@xt/db';
import type { ApiConfig } from '../config.ts';
import { notFoundHandler } from '../http/errors/error-handler.ts';
import { keyRoutes } from './key-routes.ts';
import { dashboardHeaders, dashboardPages } from './pages.ts';
import { requireSession } from './require-session.ts';
import { reviewRoutes } from './review-routes.ts';
import { sameOriginOnly } from './same-origin.ts';
import { sessionRoutes } from './session-routes.ts';
import { signInThrottle } from './signin-throttle.ts';
import { usageRoutes } from './usage.ts';

export interface DashboardDeps {
  config: ApiConfig;
  db: Db;
  /** Where uploads and page previews are stored. */
  store: BlobStore;
  redis: RedisConnection;
  logger: Logger;
  /** The API's own resource routers (schemas, extractions, …), served to signed-in people. */
  resources: Router[];
  /** The API's per-client rate limiter, applied to signed-in people as to keys. */
  rateLimit: RequestHandler;
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * `/dashboard`: the pages, and under `/dashboard/api` the JSON they call. The resource routes
 * are the API's own routers and services, so every rule (validation, account scoping, error
 * shapes) lives in one place; only the credential differs (a session instead of a key).
 */
export function dashboardRouter(deps: DashboardDeps): Router {
  const { config, db } = deps;
  const lifetime: SessionLifetime = {
    idleMs: config.SESSION_IDLE_HOURS * 3_600_000,
    absoluteMs: config.SESSION_MAX_DAYS * 86_400_000,
  };
  const throttle = signInThrottle({
    redis: deps.redis,
    prefix: config.QUEUE_PREFIX,
    perEmail: config.SIGNIN_MAX_PER_EMAIL,
    perEmailGlobal: config.SIGNIN_MAX_PER_EMAIL_GLOBAL,
    perAddress: config.SIGNIN_MAX_PER_ADDRESS,
    windowSeconds: config.SIGNIN_WINDOW_SECONDS,
    logger: deps.logger,
  });
  const signedIn = requireSession(db, lifetime);

  const api = Router();
  api.use(noStore, sameOriginOnly(config.PUBLIC_URL));
  api.use(sessionRoutes(db, lifetime, throttle, signedIn, config.PUBLIC_URL));
  api.use(signedIn, deps.rateLimit);
  api.use(keyRoutes(db, config.MAX_KEYS_PER_ACCOUNT));
  api.use(usageRoutes(db));
  api.use(reviewRoutes(db, deps.store));
  for (const resource of deps.resources) api.use(resource);
  api.use(notFoundHandler);

  const router = Router();
  router.use(dashboardHeaders);
  router.use('/api', api);
  router.use(dashboardPages(config.DASHBOARD_ASSETS_DIR ?? dashboardAssetsDir()));
  return router;
}
