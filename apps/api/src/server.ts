import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Queue } from 'bullmq';
import { createDb, runMigrations } from '@xt/db';
import { createCompletionWaiter, createRedis, EXTRACTION_QUEUE } from '@xt/queue';
import { createApp } from './app.ts';
import { startKeySweep } from './idempotency/sweep.ts';
import { createKeyCache } from './auth/key-revocations.ts';
import { UploadTempDir } from './uploads/temp-files.ts';
import type { ApiConfig } from './config.ts';
import { createAppLogger, createDependencyOutages, listenFailure, type Logger } from '@xt/runtime';

export interface RunningApi {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Wires the API's dependencies, applies migrations and listens. Used by main and by tests. */
export async function startApi(
  config: ApiConfig,
  logger: Logger = createAppLogger(config, 'api'),
): Promise<RunningApi> {
  await runMigrations(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL);
  // Connection trouble is reported once per outage; requests meanwhile fall back on their own.
  const outages = createDependencyOutages(logger);
  const db = createDb(config.DATABASE_URL, {
    max: config.DB_POOL_MAX,
    applicationName: 'api',
    preparedStatements: config.DB_PREPARED_STATEMENTS,
    ...outages.postgresEvents,
  });
  const redis = createRedis(config.REDIS_URL, 'producer', outages.redisEvents);
  const subscriber = createRedis(config.REDIS_URL, 'blocking', outages.redisEvents);
  const queue = new Queue(EXTRACTION_QUEUE, { connection: redis, prefix: config.QUEUE_PREFIX });
  queue.on('error', (err) => outages.redis.failed(err));
  const waiter = await createCompletionWaiter(subscriber, config.QUEUE_PREFIX);
  const keyCache = createKeyCache(db.db, {
    listenUrl: config.DATABASE_DIRECT_URL ?? config.DATABASE_URL,
    ttlSeconds: config.KEY_CACHE_TTL_SECONDS,
    logger,
  });
  // Temp files of uploads a crashed process was receiving.
  await new UploadTempDir(config.UPLOAD_TMP_DIR).prepare();
  let closing: Promise<void> | undefined;
  const app = createApp({
    config,
    db,
    redis,
    queue,
    waiter,
    keys: keyCache.keys,
    logger,
    stopping: () => closing !== undefined,
  });
  const sweep = startKeySweep(db.db, config.IDEMPOTENCY_SWEEP_INTERVAL_SECONDS * 1000, logger);

  const server = await new Promise<Server>((resolve, reject) => {
    // Express 5 calls back with the error when listening fails: one line naming the setting.
    const s = app.listen(config.PORT, config.HOST, (error?: Error) => {
      if (!error) resolve(s);
      else
        reject(
          listenFailure(
            error,
            'the API',
            { host: config.HOST, port: config.PORT },
            'set PORT to a free port (HOST chooses the address)',
          ),
        );
    });
  });
  // Longer than any wait a client may ask for (Prefer: wait=300), shorter than forever.
  server.requestTimeout = 330_000;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
  const address = server.address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  const close = () =>
    (closing ??= (async () => {
      // Stop accepting; waiting requests are released by closing the waiter (they answer 202).
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await sweep.stop();
      await waiter.close();
      const grace = setTimeout(
        () => server.closeAllConnections(),
        config.SHUTDOWN_GRACE_SECONDS * 1000,
      );
      server.closeIdleConnections();
      await stopped;
      clearTimeout(grace);
      await queue.close().catch(() => undefined);
      await keyCache.close();
      subscriber.disconnect();
      redis.disconnect();
      await db.close();
    })());
  return { url, server, close };
}
