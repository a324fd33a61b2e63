/**
 * Batch priority through the whole service (docs/batch.md): a `priority: "batch"` extraction's
 * model calls go through the provider's Files and Batches interface (the stand-in's), never as
 * direct chat completions; a worker killed while its batch is at the provider resumes it
 * without sending it again and charges once; deleting the extraction cancels the batch; near
 * the window's end what is left goes out as standard calls.
 */
import pg from 'pg';
import { afterEach, describe, expect } from 'vitest';
import { waitFor, type AppProcess } from '@xt/testkit';
import { startTestWorker, type TestApi } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

// The tests start their workers themselves: with their own settings, some to kill.
const test = stackTest({ worker: false });
/** Ten times cheaper through the batch interface, so the records show how each call was sent. */
const PRICES = {
  input: 10,
  cachedInput: 10,
  output: 10,
  batch: { input: 1, cachedInput: 1, output: 1 },
};
const quick = {
  BATCH_POLL_MS: '100',
  MODEL_PRICES: JSON.stringify({ 'gpt-4.1': PRICES, 'gpt-4.1-mini': PRICES }),
};
/** What the record's tokens cost at one of the two rates of PRICES. */
const costAt = (rate: 'standard' | 'batch', record: { totalTokens: number }) =>
  (record.totalTokens * (rate === 'batch' ? 1 : 10)) / 1_000_000;
// A killed worker's job is taken over within seconds (tests/e2e/worker-crash.test.ts).
const fastRecovery = { LOCK_DURATION_MS: '1500', STALLED_INTERVAL_MS: '500' };
const workers: AppProcess[] = [];
const startWorker = async (url: string, api: TestApi, env: Record<string, string> = {}) => {
  const worker = await startTestWorker(api, url, { ...quick, ...env });
  workers.push(worker);
  return worker;
};

afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
});

const STRUCTURE = {
  type: 'object',
  properties: { total: { type: 'number', required: true } },
};

describe('batch priority', () => {
  test('completes through the batch interface, not direct calls, charged once', async ({
    api,
    model,
  }) => {
    model.reset();
    model.batch.setDelay(0);
    await startWorker(model.url, api);
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Batch', structure: STRUCTURE },
    });
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schema.body.data.id,
        type: 'text',
        source: 'Total: 12.50 EUR',
        priority: 'batch',
      },
      headers: { prefer: 'respond-async' },
    });
    const id = res.body.data.id as string;
    const done = await finished(api, id);
    expect(done).toMatchObject({ status: 'completed', charged: true, priority: 'batch' });
    expect(done.totalTokens).toBeGreaterThan(0);
    expect(done.usage.estimatedCostUsd).toBeCloseTo(costAt('batch', done), 10);
    expect(model.requests).toHaveLength(0);
    expect(model.batch.lines).toHaveLength(1);
    expect(posts(model, '/v1/batches')).toBe(1);
    expect(posts(model, '/v1/files')).toBe(1);
    // Its files at the provider (the source's text in, the answers out) are deleted once read.
    const [batch] = [...model.batch.batches.values()];
    expect(deletes(model).sort()).toEqual(
      [`/v1/files/${batch!.input_file_id}`, `/v1/files/${batch!.output_file_id}`].sort(),
    );
  }, 240_000);

  test('a worker killed while its batch is at the provider: resumed, sent once, charged once', async ({
    api,
    model,
  }) => {
    model.reset();
    model.batch.setDelay(Infinity);
    const doomed = await startWorker(model.url, api, fastRecovery);
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Batch crash', structure: STRUCTURE },
    });
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schema.body.data.id,
        type: 'text',
        source: 'Total: 7.25 EUR',
        priority: 'batch',
      },
      headers: { prefer: 'respond-async' },
    });
    const id = res.body.data.id as string;
    // Uploaded and created; the worker now polls a batch that does not finish.
    await waitFor(() => posts(model, '/v1/batches') === 1, 120_000);
    await waitFor(() => gets(model, '/v1/batches/') >= 1, 120_000);
    await doomed.stop('SIGKILL');

    await startWorker(model.url, api, fastRecovery);
    model.batch.completeAll();
    const done = await finished(api, id);
    expect(done).toMatchObject({ status: 'completed', charged: true });
    expect(posts(model, '/v1/batches')).toBe(1);
    expect(posts(model, '/v1/files')).toBe(1);
    expect(model.batch.lines).toHaveLength(1);
    expect(model.requests).toHaveLength(0);
    const row = await dbRow(api.database.url, id);
    expect(Number(row.total_tokens)).toBe(done.totalTokens);
  }, 300_000);

  // The delete lands while the worker may still be recording the batch it just created: the
  // sweep leaves such a round until its id is written, then cancels it (batch/sweep.ts).
  test('deleting the extraction cancels its batch; nothing is written afterwards', async ({
    api,
    model,
  }) => {
    model.reset();
    model.batch.setDelay(Infinity);
    await startWorker(model.url, api);
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Batch delete', structure: STRUCTURE },
    });
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schema.body.data.id,
        type: 'text',
        source: 'Total: 1.00 EUR',
        priority: 'batch',
      },
      headers: { prefer: 'respond-async' },
    });
    const id = res.body.data.id as string;
    await waitFor(() => model.batch.batches.size === 1, 120_000);
    const [batch] = [...model.batch.batches.values()];
    expect((await api.request('DELETE', `/v1/extractions/${id}`)).status).toBe(200);
    await waitFor(() => batch?.status === 'cancelled', 120_000);
    // And its files at the provider deleted: the source's text, and what the cancel left.
    await waitFor(() => deletes(model).includes(`/v1/files/${batch!.input_file_id}`), 120_000);
    expect((await api.request('GET', `/v1/extractions/${id}`)).status).toBe(404);
    expect(model.requests).toHaveLength(0);
    expect(model.batch.batches.size).toBe(1);
  }, 300_000);

  test('near the window’s end what is left goes out as standard calls', async ({ api, model }) => {
    model.reset();
    model.batch.setDelay(Infinity);
    // A window of 18 s: the fallback comes at 90% of it.
    await startWorker(model.url, api, { BATCH_WINDOW_HOURS: '0.005' });
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Batch deadline', structure: STRUCTURE },
    });
    const res = await api.request('POST', '/v1/extractions', {
      json: {
        schema_id: schema.body.data.id,
        type: 'text',
        source: 'Total: 3.00 EUR',
        priority: 'batch',
      },
      headers: { prefer: 'respond-async' },
    });
    const done = await finished(api, res.body.data.id as string);
    expect(done).toMatchObject({ status: 'completed', charged: true, priority: 'batch' });
    // The batch the provider never finished was cancelled, its request sent directly instead.
    for (const batch of model.batch.batches.values()) expect(batch.status).toBe('cancelled');
    // Its files are deleted once the cancel is over and the extraction final (the sweep).
    const [cancelled] = [...model.batch.batches.values()];
    await waitFor(() => deletes(model).includes(`/v1/files/${cancelled!.input_file_id}`), 60_000);
    expect(model.requests).toHaveLength(1);
    // Sent as a standard call, so priced as one, whatever the extraction's priority.
    expect(done.totalTokens).toBeGreaterThan(0);
    expect(done.usage.estimatedCostUsd).toBeCloseTo(costAt('standard', done), 10);
  }, 240_000);

  test('with a provider without a batch interface it runs as standard work', async ({ api }) => {
    const { startModelStandIn } = await import('@xt/testkit');
    const bare = await startModelStandIn({ batch: { enabled: false } });
    try {
      await startWorker(bare.url, api);
      const schema = await api.request('POST', '/v1/schemas', {
        json: { name: 'Batch none', structure: STRUCTURE },
      });
      const res = await api.request('POST', '/v1/extractions', {
        json: {
          schema_id: schema.body.data.id,
          type: 'text',
          source: 'Total: 5.00 EUR',
          priority: 'batch',
        },
        headers: { prefer: 'respond-async' },
      });
      const done = await finished(api, res.body.data.id as string);
      expect(done).toMatchObject({ status: 'completed', charged: true, priority: 'batch' });
      expect(bare.requests).toHaveLength(1);
      expect(done.usage.estimatedCostUsd).toBeCloseTo(costAt('standard', done), 10);
    } finally {
      for (const w of workers.splice(0)) await w.stop();
      await bare.close();
    }
  }, 240_000);
});

function finished(api: TestApi, id: string) {
  return waitFor(async () => {
    const got = await api.request('GET', `/v1/extractions/${id}`);
    const status = got.body.data?.status as string | undefined;
    return status === 'completed' || status === 'failed' ? got.body.data : undefined;
  }, 180_000);
}

function posts(model: { batch: { calls: { method: string; path: string }[] } }, path: string) {
  return model.batch.calls.filter((c) => c.method === 'POST' && c.path === path).length;
}

function deletes(model: { batch: { calls: { method: string; path: string }[] } }) {
  return model.batch.calls.filter((c) => c.method === 'DELETE').map((c) => c.path);
}

function gets(model: { batch: { calls: { method: string; path: string }[] } }, prefix: string) {
  return model.batch.calls.filter((c) => c.method === 'GET' && c.path.startsWith(prefix)).length;
}

async function dbRow(url: string, id: string) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query('select total_tokens from extractions where id = $1', [id])).rows[0];
  } finally {
    await db.end();
  }
}
