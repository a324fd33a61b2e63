/**
 * The service behind Sentinel: a master, a replica and a Sentinel on this machine, and REDIS_URL
 * in its Sentinel form for the API and a worker process. Extractions complete through the master
 * Sentinel names, and go on completing after Sentinel promotes the replica: the connections
 * follow the switch, and new jobs are written to the new master.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startModelStandIn,
  startRedisSentinel,
  waitFor,
  type AppProcess,
  type ModelStandIn,
  type RunningRedisSentinel,
} from '@xt/testkit';
import { startTestApi, startTestWorker, type TestApi } from '@xt/api/testing';
import { createInvoiceSchema } from '../support/schemas.ts';

let sentinel: RunningRedisSentinel;
let model: ModelStandIn;
let api: TestApi;
let worker: AppProcess;
let schemaId: string;

beforeAll(async () => {
  sentinel = await startRedisSentinel();
  model = await startModelStandIn();
  api = await startTestApi({ REDIS_URL: sentinel.url, EXTRACTION_WAIT_SECONDS: '20' });
  worker = await startTestWorker(api, model.url, {
    REDIS_URL: sentinel.url,
    RECONCILE_INTERVAL_MS: '500',
    RECONCILE_AFTER_MS: '1000',
  });
  schemaId = await createInvoiceSchema(api);
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await model?.close();
  await sentinel?.stop();
});

const createAndWait = (source: string) =>
  api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source },
  });

/** Whether the server on `port` is a master holding this extraction's job. */
async function masterHoldsJob(port: number, id: string): Promise<boolean> {
  const node = new Redis({ host: '127.0.0.1', port });
  try {
    const [role] = (await node.call('ROLE')) as [string];
    return role === 'master' && (await node.exists(`${api.prefix}:extractions:${id}`)) === 1;
  } finally {
    node.disconnect();
  }
}

describe('behind Sentinel', () => {
  it('completes extractions through the master Sentinel names', async () => {
    const created = await Promise.all(Array.from({ length: 5 }, (_, i) => createAndWait(`T ${i}`)));
    expect(created.map((r) => r.body.data.status)).toEqual(created.map(() => 'completed'));
    const master = await sentinel.masterPort();
    expect(await masterHoldsJob(master, created[0]!.body.data.id as string)).toBe(true);
  });

  it('goes on after a failover, writing to the promoted replica', async () => {
    const promoted = await sentinel.failover();
    // Until every connection has followed, creates are accepted and may be left to the
    // reconciler; each must still complete.
    const during = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        api.request('POST', '/v1/extractions', {
          json: { schema_id: schemaId, type: 'text', source: `During ${i}` },
          headers: { prefer: 'respond-async' },
        }),
      ),
    );
    expect(during.map((r) => r.status)).toEqual([202, 202, 202]);
    for (const r of during)
      await waitFor(
        async () =>
          (await api.request('GET', `/v1/extractions/${r.body.data.id}`)).body.data.status ===
          'completed',
        30_000,
        250,
      );
    // A create that failed to enqueue opens a breaker for a few seconds (docs/operations.md):
    // creates that wait are answered 202 meanwhile; once it closes they complete again.
    const after = await waitFor(
      async () => {
        const res = await createAndWait('After the failover');
        return res.body.data.status === 'completed' && res;
      },
      30_000,
      500,
    );
    expect(await masterHoldsJob(promoted, after.body.data.id as string)).toBe(true);
  });
});
