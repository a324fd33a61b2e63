/**
 * A taken address stops `npm start` with one line naming the setting to change, and nothing is
 * restarted in a loop: the API's port is found taken before anything starts; a worker's health
 * and metrics port, when set to one that is taken, stops the worker, and the launcher with it.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import { runAppToExit } from '@xt/testkit';

let dataDir: string;
let holder: Server;
let taken: number;

const EMBEDDED = { DATABASE_URL: '', REDIS_URL: '', TEST_DATABASE_URL: '', TEST_REDIS_URL: '' };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'xt-ports-'));
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  taken = (holder.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => holder?.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start on a taken address', () => {
  it("says the API's port is in use, naming PORT, before starting anything", async () => {
    const { code, output } = await runAppToExit('apps/launcher/src/main.ts', {
      ...EMBEDDED,
      DATA_DIR: dataDir,
      PORT: String(taken),
    });
    expect(code).toBe(1);
    expect(output.trim()).toBe(
      `[start] 127.0.0.1:${taken} is in use (another npm start?): set PORT to a free port ` +
        '(HOST chooses the address)',
    );
    expect(await readdir(dataDir)).toEqual([]);
  }, 60_000);

  it('stops, naming WORKER_METRICS_PORT, when a worker cannot listen, and restarts nothing', async () => {
    const { code, output } = await runAppToExit(
      'apps/launcher/src/main.ts',
      {
        ...EMBEDDED,
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        WORKER_METRICS_PORT: String(taken),
        LOG_FORMAT: 'json',
        OPENAI_API_KEY: 'unused',
      },
      240_000,
    );
    expect(code, output).toBe(1);
    const fatal = output.split('\n').filter((line) => line.includes('"level":60'));
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toContain(`cannot listen on 127.0.0.1:${taken}`);
    expect(fatal[0]).toContain('set WORKER_METRICS_PORT to a free port');
    expect(output).toContain(
      '[start] worker-1 cannot run with these settings (its line above says which to change)',
    );
    expect(output).not.toMatch(/restarting in|^ {4}at /m);
  }, 300_000);
});
