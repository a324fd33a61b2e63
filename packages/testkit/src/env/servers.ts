import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, startRedisServer } from '@xt/embedded';
import { dockerReachable } from './docker.ts';

export interface TestServers {
  databaseUrl: string;
  redisUrl: string;
  /** Stops whatever this call started; servers named by the environment are left alone. */
  stop(): Promise<void>;
}

export interface ResolveOptions {
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Log where the servers came from. Defaults to silence. */
  onInfo?: (message: string) => void;
}

interface Started {
  url: string;
  stop(): Promise<void>;
}

// Tests never need a database to survive a power cut; skipping fsync keeps clones cheap.
const THROWAWAY_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/**
 * Finds PostgreSQL and Redis for a test run: the servers the environment names
 * (TEST_DATABASE_URL / TEST_REDIS_URL, else DATABASE_URL / REDIS_URL), else containers when a
 * Docker engine answers, else the embedded servers `npm start` uses, on free ports, with data in
 * a temporary directory that `stop()` removes. Each of the two is resolved on its own.
 */
export async function resolveTestServers(options: ResolveOptions = {}): Promise<TestServers> {
  const env = options.env ?? process.env;
  const info = options.onInfo ?? (() => undefined);
  const fromEnv = (...names: string[]): string | undefined =>
    names.map((name) => env[name]).find((value) => value !== undefined && value !== '');
  const databaseFromEnv = fromEnv('TEST_DATABASE_URL', 'DATABASE_URL');
  const redisFromEnv = fromEnv('TEST_REDIS_URL', 'REDIS_URL');
  if (databaseFromEnv !== undefined && redisFromEnv !== undefined) {
    info('test servers: from the environment');
    return { databaseUrl: databaseFromEnv, redisUrl: redisFromEnv, stop: () => Promise.resolve() };
  }

  const started: Started[] = [];
  // Last started, first stopped: the embedded workspace directory goes after its servers.
  const stop = async (): Promise<void> => {
    let failure: unknown;
    for (const server of started.reverse()) {
      await server.stop().catch((error: unknown) => (failure ??= error));
    }
    if (failure !== undefined) {
      throw new Error('stopping the test servers failed', { cause: failure });
    }
  };
  try {
    const useDocker = await dockerReachable(env);
    const start = useDocker ? await containerStarters() : await embeddedStarters(started);
    info(
      `test servers: ${useDocker ? 'testcontainers' : 'embedded'} for what the environment lacks`,
    );
    const databaseUrl = databaseFromEnv ?? (await remember(started, start.postgres()));
    const redisUrl = redisFromEnv ?? (await remember(started, start.redis()));
    return { databaseUrl, redisUrl, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

async function remember(started: Started[], server: Promise<Started>): Promise<string> {
  const running = await server;
  started.push(running);
  return running.url;
}

interface Starters {
  postgres(): Promise<Started>;
  redis(): Promise<Started>;
}

/** `started` gets the temporary directory first, so that it is removed after both servers. */
async function embeddedStarters(started: Started[]): Promise<Starters> {
  const root = await mkdtemp(join(tmpdir(), 'xt-test-servers-'));
  started.push({ url: root, stop: () => rm(root, { recursive: true, force: true }) });
  // As root, PostgreSQL runs as the "postgres" user, which must be able to enter the directory.
  await chmod(root, 0o755);
  return {
    postgres: () =>
      startEmbeddedPostgres({
        dataDir: join(root, 'postgres'),
        serverSettings: THROWAWAY_SETTINGS,
      }),
    redis: () => startRedisServer({ dataDir: join(root, 'redis') }),
  };
}

async function containerStarters(): Promise<Starters> {
  // Loaded only when Docker is there: testcontainers does work when imported.
  const [{ PostgreSqlContainer }, { RedisContainer }] = await Promise.all([
    import('@testcontainers/postgresql'),
    import('@testcontainers/redis'),
  ]);
  return {
    postgres: async () => {
      const container = await new PostgreSqlContainer('postgres:17-alpine')
        .withCommand([
          'postgres',
          ...Object.entries(THROWAWAY_SETTINGS).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
        ])
        .start();
      return { url: container.getConnectionUri(), stop: async () => void (await container.stop()) };
    },
    redis: async () => {
      const container = await new RedisContainer('redis:7-alpine')
        .withCommand(['redis-server', '--maxmemory-policy', 'noeviction'])
        .start();
      return { url: container.getConnectionUrl(), stop: async () => void (await container.stop()) };
    },
  };
}
