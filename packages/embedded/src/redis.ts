import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pTimeout from 'p-timeout';
import { OutputTail } from './output-tail.ts';
import { pingRedis } from './ping-redis.ts';
import { clearStaleServer, isAlive, readPid, terminate, waitForExit } from './processes.ts';
import { checkRedisBinary } from './redis-binary.ts';
import { choosePort } from './stable-port.ts';

export interface RedisServerOptions {
  /** Where the append-only file, the pid file and the remembered port live. Created if absent. */
  dataDir: string;
  /** Defaults to the port used last time in `dataDir` when free, else any free port. */
  port?: number;
  /** Defaults to `redis-server`, looked up in PATH. */
  redisServerPath?: string;
  /** Receives everything the server prints. */
  onLog?: (message: string) => void;
  /** How long to wait for the first PONG (loading a large AOF takes a while). */
  startTimeoutMs?: number;
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

const PID_FILE = 'redis.pid';
const BIND_ATTEMPTS = 3;

/*
 * redis-server cannot notice that its parent died, so it runs under a small shell that holds our
 * end of a pipe on fd 3: when this process exits, however abruptly, the pipe reaches EOF and the
 * shell stops redis. The shell lives exactly as long as redis does.
 */
const SUPERVISOR = `
bin="$1"; shift
"$bin" "$@" </dev/null &
child=$!
exec 3<&0
( read -r _ <&3; kill -TERM "$child" 2>/dev/null ) &
watcher=$!
wait "$child"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
`;

/**
 * Starts a private redis-server bound to 127.0.0.1, persisting to an append-only file in
 * `dataDir`, and resolves once it answers PING.
 */
export async function startRedisServer(options: RedisServerOptions): Promise<RunningServer> {
  const dataDir = resolve(options.dataDir);
  const binary = options.redisServerPath ?? 'redis-server';
  await checkRedisBinary(binary);
  await mkdir(dataDir, { recursive: true });
  const pidFile = join(dataDir, PID_FILE);
  await clearStaleServer({ server: 'redis-server', pidFile, dir: dataDir });

  for (let attempt = 1; ; attempt += 1) {
    const port = await choosePort(dataDir, options.port);
    const output = new OutputTail();
    const child = spawnSupervised(binary, dataDir, port, pidFile, output, options.onLog);
    try {
      await waitUntilReady(child, port, output, options.startTimeoutMs ?? 30_000);
    } catch (error) {
      await stopSupervised(child, pidFile);
      const portRace = options.port === undefined && output.includes('Address already in use');
      if (portRace && attempt < BIND_ATTEMPTS) {
        // Someone took the port between our probe and redis binding it: pick another.
        await rm(join(dataDir, 'port'), { force: true });
        continue;
      }
      throw error;
    }
    let stopping: Promise<void> | undefined;
    return {
      url: `redis://127.0.0.1:${port}`,
      stop: () => (stopping ??= stopSupervised(child, pidFile)),
    };
  }
}

function spawnSupervised(
  binary: string,
  dataDir: string,
  port: number,
  pidFile: string,
  output: OutputTail,
  onLog: ((message: string) => void) | undefined,
): ChildProcess {
  const args = [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dataDir],
    ...['--appendonly', 'yes', '--maxmemory-policy', 'noeviction'],
    ...['--daemonize', 'no', '--pidfile', pidFile, '--logfile', ''],
  ];
  const child = spawn('sh', ['-c', SUPERVISOR, 'redis-supervisor', binary, ...args], {
    cwd: dataDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const onData = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    output.push(text);
    onLog?.(text);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  // An EPIPE on stdin only means the supervisor is gone; exit handling reports that.
  child.stdin?.on('error', () => undefined);
  return child;
}

async function waitUntilReady(
  child: ChildProcess,
  port: number,
  output: OutputTail,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastReply: string;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited during start-up (port ${port}):\n${output.toString()}`);
    }
    try {
      const reply = await pingRedis(port, 1_000);
      if (reply === '+PONG') return;
      lastReply = reply;
    } catch (error) {
      lastReply = (error as Error).message;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `redis-server did not answer PING on port ${port} within ${timeoutMs} ms (${lastReply}):\n${output.toString()}`,
      );
    }
    await sleep(50);
  }
}

async function stopSupervised(child: ChildProcess, pidFile: string): Promise<void> {
  const redisPid = await readPid(pidFile);
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((done) => child.once('exit', () => done()));
  child.stdin?.end();
  const graceful = await pTimeout(
    exited.then(() => true),
    { milliseconds: 30_000, fallback: () => false },
  );
  if (!graceful) {
    child.kill('SIGKILL');
    if (redisPid !== undefined && isAlive(redisPid)) await terminate(redisPid, 'SIGKILL', 0);
  }
  // redis removes its pid file on a clean exit; make sure the process really is gone first.
  if (redisPid !== undefined) await waitForExit(redisPid, 5_000);
}
