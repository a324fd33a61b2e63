/**
 * The newcomer's path: `npm start` with neither DATABASE_URL nor REDIS_URL starts the embedded
 * PostgreSQL and redis-server, migrates, prints a development key and dashboard user that work,
 * serves the dashboard, and stops everything it started on Ctrl-C.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@xt/embedded';
import { startAppProcess, waitFor, type AppProcess } from '@xt/testkit';

let launcher: AppProcess | undefined;
let dataDir: string | undefined;
let fallbackDir: string | undefined;

afterAll(async () => {
  await launcher?.stop('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (fallbackDir) await rm(fallbackDir, { recursive: true, force: true });
});

describe('npm start on the embedded default', () => {
  it('serves the API with the printed development key and shuts down cleanly', async () => {
    // mkdtemp makes a private (700) directory: as root, the launcher must still start PostgreSQL
    // (it runs as the postgres user) by keeping that cluster where the postgres user can go.
    dataDir = await mkdtemp(path.join(tmpdir(), 'xt-launcher-'));
    const port = await freePort();
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      OPENAI_API_KEY: 'unused',
      // Other tests on this host may hold the default ops port.
      WORKER_METRICS_PORT: '0',
    };
    const hidden = { DATABASE_URL: '', REDIS_URL: '', TEST_DATABASE_URL: '', TEST_REDIS_URL: '' };
    launcher = await startAppProcess(
      'apps/launcher/src/main.ts',
      { ...env, ...hidden },
      'service starting',
      120_000,
    );

    fallbackDir = /keeps its data in (\/var\/lib\/extraction-service\/[0-9a-f]+)/.exec(
      launcher.output(),
    )?.[1];
    const key = (await readFile(path.join(dataDir, 'dev-api-key.txt'), 'utf8')).trim();
    expect(launcher.output()).toContain(key);
    if (process.getuid?.() === 0)
      expect(launcher.output()).toContain('/var/lib/extraction-service/');
    const base = `http://127.0.0.1:${port}`;
    const res = await waitFor(async () => {
      const r = await fetch(`${base}/v1/schemas`, { headers: { authorization: `Bearer ${key}` } });
      return r.status === 200 ? r : undefined;
    }, 60_000);
    expect(((await res.json()) as { status: boolean }).status).toBe(true);

    // The development dashboard user: printed once beside the key, saved, and able to sign in.
    const saved = await readFile(path.join(dataDir, 'dev-user.txt'), 'utf8');
    const password = /password: (\S+)/.exec(saved)?.[1] ?? '';
    expect(launcher.output()).toContain(password);
    await waitFor(() => launcher?.output().includes(`dashboard: ${base}/dashboard`), 10_000);
    const signIn = await fetch(`${base}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'dev@localhost', password }),
    });
    expect(signIn.status).toBe(200);
    expect((await fetch(`${base}/dashboard/keys`)).headers.get('content-type')).toMatch(
      /text\/html/,
    );

    const stack = JSON.parse(await readFile(path.join(dataDir, 'stack.json'), 'utf8')) as {
      databaseUrl: string;
      redisUrl: string;
    };
    expect(await launcher.stop('SIGINT')).toBe(0);
    launcher = undefined;
    // Everything it started is gone: API, PostgreSQL and Redis.
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    const client = new pg.Client({
      connectionString: stack.databaseUrl,
      connectionTimeoutMillis: 2000,
    });
    await expect(client.connect()).rejects.toThrow();
    const redisPort = Number(new URL(stack.redisUrl).port);
    await expect(
      new Promise((resolve, reject) => {
        const socket = net.connect(redisPort, '127.0.0.1', () => resolve(socket.end()));
        socket.on('error', reject);
      }),
    ).rejects.toThrow();
    // Its own waits allow 120 s for start-up (initdb included) and 60 s for the API to answer.
  }, 240_000);
});
