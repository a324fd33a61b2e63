/**
 * A real worker process whose Redis is unreachable still serves its operational endpoints:
 * alive, not ready (naming Redis), and metrics only for whoever holds the token.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import {
  createTestDatabase,
  startAppProcess,
  type AppProcess,
  type TestDatabase,
} from '@xt/testkit';

let database: TestDatabase;
let worker: AppProcess | undefined;
let base: string;

/** A port nothing listens on: bound and released, so connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  worker = await startAppProcess(
    'apps/worker/src/main.ts',
    {
      DATABASE_URL: database.url,
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      OPENAI_API_KEY: 'sk-unused',
      LOG_LEVEL: 'info',
      WORKER_METRICS_PORT: String(port),
      WORKER_METRICS_HOST: '127.0.0.1',
      METRICS_TOKEN: 'scrape-secret',
      WEBHOOK_CONCURRENCY: '0',
    },
    'worker ops endpoints listening',
    60_000,
  );
  base = `http://127.0.0.1:${port}`;
}, 90_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await database?.drop();
});

describe('worker ops endpoints', () => {
  it('answers /healthz while Redis is unreachable', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: true, message: 'alive' });
  });

  it('answers /readyz with 503 naming Redis, and PostgreSQL as fine', async () => {
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { code: string; data: Record<string, boolean> };
    expect(body.code).toBe('NOT_READY');
    expect(body.data.redis).toBe(false);
    expect(body.data.postgres).toBe(true);
  });

  it('serves /metrics only with the token', async () => {
    const without = await fetch(`${base}/metrics`);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${base}/metrics`, {
      headers: { authorization: 'Bearer scrape-secret' },
    });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await right.text();
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^worker_prep_threads_max \d+$/m);
  });
});
