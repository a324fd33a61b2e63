/**
 * The service on a Redis Cluster: three redis-server nodes on this machine, joined by
 * `redis-cli --cluster create`, and REDIS_URL in its cluster form for the API and a worker
 * process. Creates that wait, asynchronous creates polled, the completion message, the
 * reconciler, the rate limiter, the sign-in throttle, queue metrics and the worker healthcheck's
 * look at the queue all work through the cluster, and every key the service wrote is in the one
 * hash slot of its braced prefix.
 */
import type pg from 'pg';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@xt/accounts';
import { createDb } from '@xt/db';
import { EXTRACTION_QUEUE, completionChannel, createRedis, type RedisConnection } from '@xt/queue';
import {
  openTestPool,
  startModelStandIn,
  startRedisCluster,
  waitFor,
  type AppProcess,
  type ModelStandIn,
  type RunningRedisCluster,
} from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';
import { createInvoiceSchema, insertJoblessExtraction } from '../support/schemas.ts';

const RATE_LIMIT_MAX = 40;
let cluster: RunningRedisCluster;
let model: ModelStandIn;
let api: TestApi;
let worker: AppProcess;
let db: pg.Pool;
let subscriber: RedisConnection;
const finished: string[] = [];
let schemaId: string;

beforeAll(async () => {
  cluster = await startRedisCluster(3);
  model = await startModelStandIn();
  api = await startTestApi({
    REDIS_URL: cluster.url,
    RATE_LIMIT_MAX: String(RATE_LIMIT_MAX),
    EXTRACTION_WAIT_SECONDS: '20',
  });
  worker = await startTestWorker(api, model.url, {
    REDIS_URL: cluster.url,
    RECONCILE_INTERVAL_MS: '500',
    RECONCILE_AFTER_MS: '1000',
  });
  db = openTestPool(api.database.url);
  // What the API's waiters hear, heard here too: the worker's publish crosses the cluster.
  subscriber = createRedis(cluster.url, 'blocking');
  subscriber.on('message', (_channel: string, id: string) => finished.push(id));
  await subscriber.subscribe(completionChannel(api.prefix));
  schemaId = await createInvoiceSchema(api);
});

afterAll(async () => {
  subscriber?.disconnect();
  await worker?.stop();
  await db?.end();
  await api?.close();
  await model?.close();
  await cluster?.stop();
});

/** Every key under the test's prefix, by the node that holds it. */
async function keysByNode(): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>();
  for (const port of cluster.ports) {
    const node = new Redis({ host: '127.0.0.1', port });
    try {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await node.scan(cursor, 'MATCH', `${api.prefix}*`, 'COUNT', 1000);
        cursor = next;
        keys.push(...batch);
      } while (cursor !== '0');
      if (keys.length > 0) found.set(port, keys);
    } finally {
      node.disconnect();
    }
  }
  return found;
}

describe('on a three-node Redis Cluster', () => {
  it('has three masters sharing the slots', async () => {
    const node = new Redis({ host: '127.0.0.1', port: cluster.ports[0] });
    const info = String(await node.cluster('INFO'));
    node.disconnect();
    expect(info).toContain('cluster_state:ok');
    expect(info).toContain('cluster_size:3');
  });

  it('completes creates that wait, and wakes their requests through pub/sub', async () => {
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.request('POST', '/v1/extractions', {
          json: { schema_id: schemaId, type: 'text', source: `Total: ${i}` },
        }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 200));
    expect(new Set(created.map((r) => r.body.data.status))).toEqual(new Set(['completed']));
    const ids = created.map((r) => r.body.data.id as string);
    await waitFor(() => ids.every((id) => finished.includes(id)), 10_000);
  });

  it('finishes asynchronous creates, polled', async () => {
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schemaId, type: 'text', source: 'Total: 7' },
      headers: { prefer: 'respond-async' },
    });
    expect(res.status).toBe(202);
    const id = res.body.data.id as string;
    const done = await waitFor(
      async () => {
        const got = await api.request('GET', `/v1/extractions/${id}`, { key: api.keys.read });
        return got.body.data.status === 'completed' && got.body.data;
      },
      30_000,
      250,
    );
    expect(done.result).toEqual({ total: expect.any(Number) });
  });

  it('lets the reconciler (a lock and a script on the cluster) enqueue a row without a job', async () => {
    const id = '7b1d8b4f-9e7c-4d2f-8b3a-1c2d3e4f5a62';
    await insertJoblessExtraction(db, schemaId, id);
    // A loaded CI machine can take a while; if it never comes, say what the worker said.
    await waitFor(
      async () =>
        (await api.request('GET', `/v1/extractions/${id}`, { key: api.keys.read })).body.data
          .status === 'completed',
      90_000,
      250,
    ).catch((err: unknown) => {
      const said = worker?.output().split('\n').slice(-60).join('\n');
      throw new Error(`the orphan row was not completed; the worker's last lines:\n${said}`, {
        cause: err,
      });
    });
  }, 120_000);

  it('counts requests in the cluster and refuses past the limit', async () => {
    const answers: number[] = [];
    for (let i = 0; i <= RATE_LIMIT_MAX; i++)
      answers.push((await api.request('GET', '/v1/schemas', { key: api.keys.other })).status);
    expect(answers.slice(0, RATE_LIMIT_MAX)).toEqual(
      answers.slice(0, RATE_LIMIT_MAX).map(() => 200),
    );
    expect(answers.at(-1)).toBe(429);
    // Counted by the cluster, not by the per-process floor the limiter falls back to without it.
    const counts = await Promise.all(
      [...(await keysByNode()).entries()].flatMap(([port, keys]) =>
        keys
          .filter((key) => key.startsWith(`${api.prefix}:rl:`))
          .map(async (key) => {
            const node = new Redis({ host: '127.0.0.1', port });
            try {
              return Number(await node.get(key));
            } finally {
              node.disconnect();
            }
          }),
      ),
    );
    expect(counts).toContain(RATE_LIMIT_MAX + 1);
  });

  it('throttles sign-in attempts in the cluster', async () => {
    const handle = createDb(api.database.url, { max: 1 });
    await createUser(handle.db, {
      accountName: 'acme',
      email: 'owner@acme.test',
      password: 'a long enough password',
    });
    await handle.close();
    const res = await fetch(`${api.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: api.url },
      body: JSON.stringify({ email: 'owner@acme.test', password: 'not the password' }),
    });
    expect(res.status).toBe(401);
    // Its in-memory fallback would also answer; the counters in the cluster say it was used.
    const keys = [...(await keysByNode()).values()].flat();
    expect(keys.some((k) => k.startsWith(`${api.prefix}:signin:`))).toBe(true);
  });

  it('reads the queue for metrics and the worker healthcheck', async () => {
    const metrics = await api.request('GET', '/metrics', { key: null });
    // The depths are left out when the queue cannot be read, so a count means it was.
    expect(metrics.text).toMatch(/extraction_queue_jobs\{state="completed"\} [1-9]/);
    // The container healthcheck's evidence: BullMQ names each consumer's connection.
    const connection = createRedis(cluster.url, 'producer');
    const queue = new Queue(EXTRACTION_QUEUE, { connection, prefix: api.prefix });
    const workers = await queue.getWorkers();
    await queue.close();
    connection.disconnect();
    expect(workers.map((w) => w.rawname)).toContainEqual(expect.stringContaining(':w:test-worker'));
  });

  it('kept every key of the service in one hash slot, on one node', async () => {
    const byNode = await keysByNode();
    expect(byNode.size).toBe(1);
    const [[port, keys]] = [...byNode.entries()] as [[number, string[]]];
    const node = new Redis({ host: '127.0.0.1', port });
    const slots = new Set(await Promise.all(keys.map((k) => node.cluster('KEYSLOT', k))));
    node.disconnect();
    expect(slots.size).toBe(1);
    // Queues, rate-limit counters and throttles alike.
    for (const space of [':extractions:', ':rl:', ':rla:', ':signin:'])
      expect(
        keys.some((k) => k.includes(space)),
        space,
      ).toBe(true);
  });
});
