/**
 * Stopping `npm start` the ways people and supervisors do: SIGTERM or SIGINT to npm (systemd,
 * Docker, a process manager), to the process npm started, or SIGINT to the whole foreground
 * group (Ctrl-C at a terminal). Each time everything it started (npm, the launcher, the API, the
 * worker, PostgreSQL, Redis) is gone, the API and worker drained before the servers stopped (no
 * warning about a lost connection), and nothing was restarted.
 *
 * The worker's old fixed health and metrics port, 9464, is held throughout: by default it no
 * longer matters, as a second instance on the machine would find it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import { waitFor } from '@xt/testkit';
import { allGone, descendants, npmStart, startedByNpm, type NpmStart } from '../test/npm-start.ts';

let dataDir: string;
let oldDefault: Server | undefined;
let running: NpmStart | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'xt-signals-'));
  oldDefault = createServer();
  await new Promise<void>((resolve) => {
    // Taken already (another worker): it is held either way.
    oldDefault!.once('error', () => resolve());
    oldDefault!.listen(9464, '127.0.0.1', resolve);
  });
});

afterAll(async () => {
  if (running && running.npm.exitCode === null) {
    const tree = [running.npm.pid!, ...descendants(running.npm.pid!)];
    for (const pid of tree) process.kill(pid, 'SIGKILL');
  }
  await new Promise((resolve) => oldDefault?.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

async function ready(port: number, run: NpmStart): Promise<void> {
  const ok = async (url: string) => (await fetch(url)).status === 200;
  await waitFor(() => ok(`http://127.0.0.1:${port}/readyz`), 180_000, 500);
  const worker = await waitFor(
    () => /"url":"(http:\/\/[^"]+)","msg":"worker ops endpoints listening"/.exec(run.output())?.[1],
    60_000,
  );
  // Ready includes the browser check: a stop mid-check is a different test.
  await waitFor(() => ok(`${worker}/readyz`), 60_000, 500);
}

const CASES = [
  { signal: 'SIGTERM', to: 'npm' },
  { signal: 'SIGINT', to: 'npm' },
  { signal: 'SIGTERM', to: 'the process npm started' },
  { signal: 'SIGINT', to: 'the process npm started' },
  { signal: 'SIGINT', to: 'the process group (Ctrl-C)' },
] as const;

describe.runIf(process.platform === 'linux')('stopping npm start', () => {
  it.each(CASES)(
    '$signal to $to stops everything, in order, without warnings',
    async ({ signal, to }) => {
      const port = await freePort();
      const run = (running = npmStart({
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        OPENAI_API_KEY: 'unused',
        ...{ DATABASE_URL: '', REDIS_URL: '', TEST_DATABASE_URL: '', TEST_REDIS_URL: '' },
        ...{ WORKER_METRICS_PORT: '', WORKER_METRICS_HOST: '', HOST: '' },
      }));
      const npmPid = run.npm.pid!;
      await ready(port, run);
      const started = await startedByNpm(npmPid);
      const tree = [npmPid, ...descendants(npmPid)];
      expect(tree.length).toBeGreaterThan(6);

      const sentAt = Date.now();
      if (to === 'npm') process.kill(npmPid, signal);
      else if (to === 'the process npm started') process.kill(started, signal);
      else process.kill(-npmPid, signal);
      await waitFor(() => allGone(tree), 60_000, 100);
      console.log(
        `${signal} to ${to}: all ${tree.length} processes gone in ${Date.now() - sentAt} ms`,
      );
      expect(await run.exited).toBe(0);

      const output = run.output();
      const after = output.slice(output.indexOf('[start] stopping'));
      expect(after).not.toBe(output);
      const loud = after.split('\n').filter((line) => /"level":(40|50|60)/.test(line));
      expect(loud).toEqual([]);
      expect(output).not.toMatch(/restarting in|^ {4}at /m);
      // The API and the worker finished draining before the servers went.
      expect(after).toContain('"msg":"worker drained"');
      // ...and the launcher said so last, once everything was down.
      expect(output.trimEnd().split('\n').at(-1)).toBe(
        '[start] stopped: the API, workers and embedded servers are down',
      );
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      running = undefined;
    },
    300_000,
  );
});
