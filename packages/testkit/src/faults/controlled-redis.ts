import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, pingRedis } from '@xt/embedded';
import type { ControlledServer } from './controlled-postgres.ts';
import { captureOutput, endProcess } from './signals.ts';

/**
 * A private redis-server persisting to an append-only file (fsync every second, as production
 * runs it), so a restart after SIGKILL loads what the AOF held and loses at most the last
 * second: the case the reconciler exists for.
 */
export async function startControlledRedis(): Promise<ControlledServer> {
  const dir = await mkdtemp(join(tmpdir(), 'xt-faults-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const outputs: (() => string)[] = [];

  const start = async (): Promise<void> => {
    const proc = spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
        ...['--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
        ...['--maxmemory-policy', 'noeviction', '--daemonize', 'no', '--logfile', ''],
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    outputs.push(captureOutput(proc));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        throw new Error(`redis-server exited during start-up:\n${outputs.at(-1)?.() ?? ''}`);
      }
      const reply = await pingRedis(port, 1_000).catch(() => '');
      if (reply === '+PONG') return;
      if (Date.now() > deadline) throw new Error(`redis-server did not answer PING on ${port}`);
      await sleep(50);
    }
  };

  const stopWith = async (signal: NodeJS.Signals) => {
    if (child === undefined) return;
    child.kill('SIGCONT');
    await endProcess(child, signal, 30_000);
    child = undefined;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    output: () => outputs.map((read) => read()).join(''),
    async close() {
      await stopWith('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
