/**
 * A worker whose ops port another process holds (a second instance on the machine, say) says in
 * one line which setting to change and exits with the settings status, which the launcher does
 * not restart; it used to die with a stack trace and be restarted in a loop.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_EXIT_CODE } from '@xt/runtime';
import { createTestDatabase, runAppToExit, type TestDatabase } from '@xt/testkit';

let database: TestDatabase;
let holder: Server;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase();
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => holder?.close(resolve));
  await database?.drop();
});

describe('a worker whose ops port is taken', () => {
  it('exits with one line naming WORKER_METRICS_PORT, and no stack trace', async () => {
    const { code, output } = await runAppToExit(
      'apps/worker/src/main.ts',
      {
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:1',
        OPENAI_API_KEY: 'sk-unused',
        LOG_FORMAT: 'json',
        WORKER_METRICS_PORT: String(port),
        WORKER_METRICS_HOST: '127.0.0.1',
        WEBHOOK_CONCURRENCY: '0',
      },
      90_000,
    );
    expect(code, output).toBe(SETTINGS_EXIT_CODE);
    const fatal = output.split('\n').filter((line) => line.includes('"level":60'));
    expect(fatal).toHaveLength(1);
    expect(JSON.parse(fatal[0]!).msg).toBe(
      `the worker's health and metrics endpoints cannot listen on 127.0.0.1:${port}: another ` +
        'process listens there; set WORKER_METRICS_PORT to a free port (WORKER_INDEX is added ' +
        'to it), or to 0 to serve none',
    );
    expect(output).not.toMatch(/^ {4}at /m);
  }, 120_000);
});
