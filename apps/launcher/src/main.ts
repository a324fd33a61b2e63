/**
 * `npm start` (through start.ts): the whole service on one machine. Uses the servers named by
 * DATABASE_URL and REDIS_URL, or else starts the embedded default (a project-local PostgreSQL and
 * a redis-server child process, data under DATA_DIR, default ./.data). Then applies migrations,
 * creates a development key and dashboard user on first start, and runs the API and the worker
 * processes. SIGINT, SIGTERM or SIGHUP (or start.ts going away) stops them in order: the API and
 * workers drain first, then Redis and PostgreSQL, which they need while draining.
 */
import { mkdir, rm } from 'node:fs/promises';
import { ensureDashboardAssets } from '@xt/dashboard';
import { ensureSystemPackages, SystemPackagesMissing } from '@xt/embedded';
import { createDb, runMigrations } from '@xt/db';
import type { RunningServer } from '@xt/embedded';
import { loadLauncherConfig } from './config.ts';
import { devKeyFile, ensureDevKey } from './dev-key.ts';
import { devUserFile, ensureDevUser } from './dev-user.ts';
import { supervise, type Supervised } from './children.ts';
import { apiAddressProblem, hostForUrl, workerOpsEnv } from './ports.ts';

const log = (line: string) => console.log(`[start] ${line}`);

async function main(): Promise<void> {
  const config = loadLauncherConfig();
  // Before anything starts: a fresh machine gets redis-server and Chromium now (or the command
  // that installs them), not a worker that fails every webpage job later.
  try {
    await ensureSystemPackages({ purpose: 'start', env: config, log });
  } catch (err) {
    if (!(err instanceof SystemPackagesMissing)) throw err;
    console.error(`[start] ${err.message}`);
    process.exit(1);
  }
  const taken = await apiAddressProblem(config);
  if (taken) {
    console.error(`[start] ${taken}`);
    process.exit(1);
  }
  await mkdir(config.DATA_DIR, { recursive: true });
  // Loaded on demand: with DATABASE_URL and REDIS_URL set, nothing embedded is needed.
  const { startLocalPostgres, startLocalRedis, stackFile, writeStack } =
    await import('./local-servers.ts');
  const servers: RunningServer[] = [];
  const children: Supervised[] = [];
  let shuttingDown = false;

  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log('stopping');
    await Promise.all(children.map((c) => c.stop()));
    for (const s of servers.reverse()) await s.stop().catch(() => undefined);
    await rm(stackFile(config.DATA_DIR), { force: true });
    // The last line: whoever pressed Ctrl-C knows the port and the data are free again.
    log(`stopped: the API, workers${servers.length > 0 ? ' and embedded servers' : ''} are down`);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // `on`, not `once`: a signal may arrive twice (sent to npm and to start.ts, each relaying
    // it), and a second signal with no listener would kill this process mid-shutdown.
    process.on(signal, () => void shutdown(0));
  }
  // start.ts gone (killed outright): nobody is left to relay a signal, so stop now.
  if (process.channel) process.once('disconnect', () => void shutdown(0));

  try {
    const embedded = !config.DATABASE_URL && !config.REDIS_URL;
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      log(`starting the embedded PostgreSQL (data in ${config.DATA_DIR}/postgres)`);
      const pgServer = await startLocalPostgres(config.DATA_DIR, log);
      servers.push(pgServer.server);
      databaseUrl = pgServer.databaseUrl;
    }
    let redisUrl = config.REDIS_URL;
    if (!redisUrl) {
      log(`starting redis-server (data in ${config.DATA_DIR}/redis)`);
      const redis = await startLocalRedis(config.DATA_DIR);
      servers.push(redis);
      redisUrl = redis.url;
    }

    await runMigrations(databaseUrl);
    // A fresh clone has no built dashboard: build it (a few seconds) before the API serves it.
    await ensureDashboardAssets(log);
    if (embedded) {
      const handle = createDb(databaseUrl, { max: 1 });
      try {
        const key = await ensureDevKey(handle.db, config.DATA_DIR);
        if (key) {
          log(
            'created a development API key (shown once; also saved to ' +
              devKeyFile(config.DATA_DIR) +
              '):',
          );
          console.log(key);
        }
        const user = await ensureDevUser(handle.db, config.DATA_DIR);
        if (user) {
          log(
            'created a development dashboard user (shown once; also saved to ' +
              devUserFile(config.DATA_DIR) +
              '):',
          );
          console.log(`email: ${user.email}\npassword: ${user.password}`);
        }
      } finally {
        await handle.close();
      }
    }

    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      PORT: String(config.PORT),
      HOST: config.HOST,
    };
    // A child that cannot run with its settings said why; restarting it would only repeat that.
    const onSettings = () => void shutdown(1);
    children.push(supervise('api', 'api', env, log, onSettings));
    for (let i = 1; i <= config.WORKER_PROCESSES; i++) {
      const ops = await workerOpsEnv(config, i - 1);
      const workerEnv = { ...env, ...ops, WORKER_NAME: `worker-${i}` };
      children.push(supervise(`worker-${i}`, 'worker', workerEnv, log, onSettings));
    }
    const apiUrl = `http://${hostForUrl(config.HOST)}:${config.PORT}`;
    await writeStack(config.DATA_DIR, { pid: process.pid, databaseUrl, redisUrl, apiUrl });
    log(`service starting at ${apiUrl} (API docs at ${apiUrl}/docs); Ctrl-C stops everything`);
    log(`dashboard: ${apiUrl}/dashboard`);
  } catch (err) {
    console.error(`[start] ${(err as Error).message}`);
    await shutdown(1);
  }
}

await main();
