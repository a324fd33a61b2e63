/**
 * The rate limits while Redis cannot be reached: counted in the process instead, so every client
 * still meets them, and the outage is one warning however many requests it lasts. Redis is a
 * port nobody listens on; the limiter and Express are the real ones.
 */
import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedis, type RedisConnection } from '@xt/queue';
import { createLogger } from '@xt/runtime';
import { HttpError } from '../errors/errors.ts';
import { rateLimiter } from './rate-limit.ts';
import '../requests/types.ts';

const lines: { level: number; msg: string }[] = [];
let redis: RedisConnection;
let server: ReturnType<express.Express['listen']>;
let url: string;

beforeAll(async () => {
  // A port that was free a moment ago: connections to it are refused.
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  redis = createRedis(`redis://127.0.0.1:${port}`, 'producer');
  const logger = createLogger('info', 'api', {
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  const app = express();
  // The key and its account, as authentication would set them.
  app.use((req, _res, next) => {
    req.principal = {
      keyId: req.get('x-key') ?? 'none',
      accountId: req.get('x-account') ?? 'none',
      scope: 'write',
    };
    next();
  });
  app.use(
    rateLimiter({ redis, prefix: 'xt-rl-test', max: 3, accountMax: 5, windowSeconds: 60, logger }),
  );
  app.get('/', (_req, res) => void res.send('ok'));
  app.use(
    (err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(err instanceof HttpError ? err.status : 500).send(String(err));
    },
  );
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  redis?.disconnect();
  await new Promise((resolve) => server?.close(resolve));
});

const get = async (key: string, account: string) => {
  const res = await fetch(url, { headers: { 'x-key': key, 'x-account': account } });
  return { status: res.status, remaining: res.headers.get('ratelimit-remaining') };
};

it('holds both limits in the process while Redis is down, with one warning', async () => {
  const statuses = async (key: string, account: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await get(key, account)).status);
    return out;
  };
  // The key's own limit: three, then 429 (the refused one is not counted for the account).
  expect(await statuses('a', 'acme', 4)).toEqual([200, 200, 200, 429]);
  // The account's: five over all its keys.
  expect(await statuses('b', 'acme', 3)).toEqual([200, 200, 429]);
  // Another account is not affected.
  expect(await statuses('c', 'globex', 3)).toEqual([200, 200, 200]);
  const warnings = lines.filter((l) => l.level === 40);
  expect(warnings.map((l) => l.msg)).toEqual([
    'redis unavailable; rate limits are counted per process until it answers again',
  ]);
});
