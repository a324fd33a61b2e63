import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '@xt/embedded';
import { postgresBinDir, postgresUser } from './postgres-binaries.ts';
import { captureOutput, endProcess, exited } from './signals.ts';

const run = promisify(execFile);

/** A server process the fault tests own: they stop, kill, pause and restart it at will. */
export interface ControlledServer {
  /** Stays the same across restarts (same port). */
  readonly url: string;
  readonly port: number;
  /** Clean stop (PostgreSQL: fast shutdown; Redis: SIGTERM, which flushes the AOF). */
  stop(): Promise<void>;
  /** SIGKILL: no chance to flush or say goodbye. */
  kill(): Promise<void>;
  /** SIGSTOP: the port stays open but nothing answers (a hung server). */
  pause(): void;
  /** SIGCONT after `pause`. */
  resume(): void;
  /** Starts it again on the same port and data, resolving once it answers. */
  start(): Promise<void>;
  /** Everything the server printed, over all its runs. */
  output(): string;
  /** Stops it and removes its data directory. */
  close(): Promise<void>;
}

/**
 * A private PostgreSQL: a fresh cluster (trust authentication, no fsync: throwaway data) in a
 * temporary directory, on a free port, started from the system's binaries as a plain child
 * process so that tests can signal it directly.
 */
export async function startControlledPostgres(): Promise<ControlledServer> {
  const bin = postgresBinDir();
  const owner = postgresUser();
  const dir = await mkdtemp(join(tmpdir(), 'xt-faults-pg-'));
  const dataDir = join(dir, 'data');
  if (owner) await chown(dir, owner.uid, owner.gid);
  await run(
    join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    { ...(owner ?? {}), cwd: dir },
  );
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  const outputs: (() => string)[] = [];

  const start = async (): Promise<void> => {
    const proc = spawn(
      join(bin, 'postgres'),
      [
        ...['-D', dataDir, '-p', String(port)],
        ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
        ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
        ...['-c', 'max_connections=200'],
      ],
      { ...(owner ?? {}), cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    outputs.push(captureOutput(proc));
    await waitUntilAnswering(url, proc, () => outputs.at(-1)?.() ?? '');
  };

  const stopWith = async (signal: NodeJS.Signals) => {
    if (child === undefined) return;
    child.kill('SIGCONT');
    // SIGINT is PostgreSQL's fast shutdown: sessions are ended, the cluster is left clean.
    await endProcess(child, signal, 30_000);
    child = undefined;
  };

  await start();
  return {
    url,
    port,
    start,
    stop: () => stopWith('SIGINT'),
    kill: () => stopWith('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    output: () => outputs.map((read) => read()).join(''),
    async close() {
      await stopWith('SIGINT');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitUntilAnswering(
  url: string,
  proc: ChildProcess,
  output: () => string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`postgres exited during start-up:\n${output()}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      await endProcess(proc, 'SIGQUIT', 5_000);
      await exited(proc);
      throw new Error(`postgres did not answer within ${timeoutMs} ms:\n${output()}`);
    }
    await sleep(100);
  }
}
