/**
 * Everything a benchmark or the load script runs against, started on this machine: PostgreSQL
 * and Redis, the model stand-in at a fixed latency, API and worker processes, and HAProxy.
 * Each process writes its output to a file under one temporary directory (kept when a run
 * fails, so its logs can be read), and each reports its pid for /proc accounting.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, closeSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort } from '@xt/embedded';
import { resolveTestServers } from '@xt/testkit/env';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface Proc {
  name: string;
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

export interface Servers {
  databaseUrl: string;
  redisUrl: string;
  /** `own`: started by this run, so every process of theirs is ours to measure. */
  origin: 'own' | 'environment';
  /** Processes of PostgreSQL that serve `databases`, and Redis; for CPU and memory readings. */
  postgresPids(databases: readonly string[]): Promise<number[]>;
  redisPid: number;
  createDatabase(label: string): Promise<{ url: string; name: string }>;
  stop(): Promise<void>;
}

export class Workdir {
  readonly path = mkdtempSync(join(tmpdir(), 'xt-bench-'));
  private failed = false;
  markFailed(): void {
    this.failed = true;
  }
  cleanup(): void {
    if (this.failed) console.error(`logs kept in ${this.path}`);
    else rmSync(this.path, { recursive: true, force: true });
  }
}

/**
 * `own` starts a private PostgreSQL and Redis (as the test kit does without a Docker engine), so
 * /proc accounting sees only this run's work; `environment` uses DATABASE_URL and REDIS_URL.
 */
export async function startServers(mode: 'own' | 'environment'): Promise<Servers> {
  const env: NodeJS.ProcessEnv =
    mode === 'own'
      ? {}
      : {
          DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
          REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        };
  const servers = await resolveTestServers({ env });
  const admin = new pg.Client({ connectionString: servers.databaseUrl });
  await admin.connect();
  const redis = new Redis(servers.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const info = await redis.info('server');
  await redis.quit();
  const redisPid = Number(/process_id:(\d+)/.exec(info)?.[1] ?? 0);
  const created: string[] = [];
  const backend = await admin.query<{ pid: number }>('select pg_backend_pid() as pid');
  const postmaster = Number(
    /^\S+ \(.*\) \S (\d+)/.exec(readFileSync(`/proc/${backend.rows[0]!.pid}/stat`, 'utf8'))?.[1],
  );

  return {
    databaseUrl: servers.databaseUrl,
    redisUrl: servers.redisUrl,
    origin: mode === 'own' ? 'own' : 'environment',
    redisPid,
    async postgresPids(databases) {
      if (mode === 'own') {
        const { processTree } = await import('./proc.ts');
        return processTree([postmaster]);
      }
      // A shared server: only the sessions serving our databases are ours.
      const rows = await admin.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = any($1)',
        [databases],
      );
      return rows.rows.map((r) => r.pid);
    },
    async createDatabase(label) {
      const name = `xt_bench_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
      await admin.query(`create database "${name}"`);
      created.push(name);
      const url = new URL(servers.databaseUrl);
      url.pathname = `/${name}`;
      return { url: url.toString(), name };
    },
    async stop() {
      for (const name of created) {
        await admin.query(`drop database if exists "${name}" with (force)`).catch(() => undefined);
      }
      await admin.end();
      await servers.stop();
    },
  };
}

function spawnLogged(
  workdir: Workdir,
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; logFile: string } {
  const logFile = join(workdir.path, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  return { child, logFile };
}

function stopper(child: ChildProcess, graceMs = 15_000): () => Promise<void> {
  return () => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  };
}

/** Waits until `ready()` holds, failing early (with the log) when the process exits. */
async function waitReady(
  name: string,
  child: ChildProcess,
  logFile: string,
  ready: () => boolean | Promise<boolean>,
  // Generous: on a machine busy with other work, loading an app through tsx can take minutes.
  timeoutMs = 300_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited before it was ready:\n${tail(logFile)}`);
    }
    if (await ready()) return;
    await sleep(100);
  }
  throw new Error(`${name} was not ready in ${timeoutMs} ms:\n${tail(logFile)}`);
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-4000);
  } catch {
    return '';
  }
}

const logSays = (file: string, text: string) => () => tail(file).includes(text);

/** Runs a TypeScript entry point with tsx, as `npm run start:*` does. */
export async function startNode(
  workdir: Workdir,
  name: string,
  entry: string,
  options: {
    env?: Record<string, string>;
    args?: string[];
    nodeArgs?: string[];
    readyText: string;
  },
): Promise<Proc> {
  const { child, logFile } = spawnLogged(
    workdir,
    name,
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      '--import',
      'tsx',
      join(REPO_ROOT, entry),
      ...(options.args ?? []),
    ],
    options.env,
  );
  await waitReady(name, child, logFile, logSays(logFile, options.readyText)).catch(
    async (error: unknown) => {
      await stopper(child)();
      throw error;
    },
  );
  return { name, pid: child.pid!, logFile, stop: stopper(child) };
}

/** The OpenAI-compatible stand-in in its own process, answering every call after `delayMs`. */
export async function startModel(
  workdir: Workdir,
  delayMs: number,
): Promise<Proc & { url: string }> {
  const proc = await startNode(
    workdir,
    'model-stand-in',
    'packages/testkit/src/model-stand-in/cli.ts',
    {
      args: ['--port', '0', '--delay-ms', String(delayMs)],
      readyText: 'OPENAI_BASE_URL=',
    },
  );
  const url = /OPENAI_BASE_URL=(\S+)/.exec(readFileSync(proc.logFile, 'utf8'))![1]!;
  return { ...proc, url };
}

export interface ServiceEnv {
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  modelUrl: string;
}

/** Settings both apps share in a benchmark: production defaults except where noted. */
function commonEnv(s: ServiceEnv): Record<string, string> {
  return {
    DATABASE_URL: s.databaseUrl,
    REDIS_URL: s.redisUrl,
    QUEUE_PREFIX: s.queuePrefix,
    // Production's level: an access-log line per request is part of the service's cost.
    LOG_LEVEL: 'info',
  };
}

export async function startApi(
  workdir: Workdir,
  name: string,
  s: ServiceEnv,
  extra: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Proc & { url: string }> {
  const port = await freePort();
  const proc = await startNode(workdir, name, 'apps/api/src/main.ts', {
    env: {
      ...commonEnv(s),
      PORT: String(port),
      HOST: '127.0.0.1',
      // The limiters still run (their Redis round trips are part of the cost) but never refuse.
      RATE_LIMIT_MAX: '1000000000',
      RATE_LIMIT_ACCOUNT_MAX: '1000000000',
      MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT: '1000000000',
      ...extra,
    },
    nodeArgs,
    readyText: 'API listening',
  });
  return { ...proc, url: `http://127.0.0.1:${port}` };
}

export async function startWorker(
  workdir: Workdir,
  name: string,
  s: ServiceEnv,
  extra: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Proc> {
  return startNode(workdir, name, 'apps/worker/src/main.ts', {
    env: {
      ...commonEnv(s),
      WORKER_NAME: name,
      OPENAI_API_KEY: 'bench',
      OPENAI_BASE_URL: s.modelUrl,
      // the stand-in imitates OpenAI (docs/models.md: MODEL_ENDPOINT_KIND)
      MODEL_ENDPOINT_KIND: 'openai',
      // Several workers on this host: no fixed ops port (WORKER_METRICS_PORT) to clash on.
      WORKER_METRICS_PORT: '0',
      ...extra,
    },
    nodeArgs,
    readyText: 'worker started',
  });
}

/** Debian's HAProxy in front of `backends` (round robin, HTTP keep-alive to the API processes). */
export async function startHaproxy(
  workdir: Workdir,
  backends: readonly string[],
): Promise<Proc & { url: string }> {
  const port = await freePort();
  const config = join(workdir.path, `haproxy-${port}.cfg`);
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 4000',
      '  nbthread 1',
      'defaults',
      '  mode http',
      '  option http-keep-alive',
      '  timeout connect 5s',
      '  timeout client 120s',
      '  timeout server 120s',
      `frontend api`,
      `  bind 127.0.0.1:${port}`,
      '  default_backend apis',
      'backend apis',
      '  balance roundrobin',
      ...backends.map((url, i) => `  server api${i + 1} ${new URL(url).host} maxconn 1000`),
      '',
    ].join('\n'),
  );
  const { child, logFile } = spawnLogged(workdir, `haproxy-${port}`, '/usr/sbin/haproxy', [
    '-db',
    '-f',
    config,
  ]);
  const url = `http://127.0.0.1:${port}`;
  await waitReady('haproxy', child, logFile, async () => {
    try {
      await (await fetch(`${url}/healthz`)).arrayBuffer();
      return true;
    } catch {
      return false;
    }
  });
  return { name: 'haproxy', pid: child.pid!, logFile, stop: stopper(child, 5_000), url };
}
