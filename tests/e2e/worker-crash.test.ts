/**
 * A worker process killed in the middle of a job loses nothing: once its lock lapses another
 * worker runs the job again, the extraction completes, and it is charged once.
 */
import pg from 'pg';
import { describe, expect } from 'vitest';
import { waitFor, type AppProcess } from '@xt/testkit';
import { startTestWorker } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

// The test starts its workers itself: one to kill, one to take over.
const test = stackTest({ worker: false });
const fastRecovery = { LOCK_DURATION_MS: '1500', STALLED_INTERVAL_MS: '500' };
const workers: AppProcess[] = [];

test.afterAll(async () => {
  for (const w of workers) await w.stop();
});

describe('a worker that dies mid-job', () => {
  test('has its job run again by another worker, completing and charging once', async ({
    api,
    model,
  }) => {
    const schema = await api.request('POST', '/v1/schemas', {
      json: { name: 'Crash', structure: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const doomed = await startTestWorker(api, model.url, fastRecovery);
    workers.push(doomed);
    model.behave({ hang: true });
    const res = await api.request('POST', '/v1/extractions', {
      json: { schema_id: schema.body.data.id, type: 'text', source: 'survive the crash' },
      headers: { prefer: 'respond-async' },
    });
    const id = res.body.data.id as string;
    await waitFor(() => model.requests.length === 1);
    await doomed.stop('SIGKILL');

    workers.push(await startTestWorker(api, model.url, fastRecovery));
    const done = await waitFor(async () => {
      const got = await api.request('GET', `/v1/extractions/${id}`);
      return got.body.data.status === 'completed' ? got.body.data : undefined;
    }, 30_000);
    expect(done.charged).toBe(true);
    expect(model.requests).toHaveLength(2);

    const db = new pg.Client({ connectionString: api.database.url });
    await db.connect();
    const row = (
      await db.query('select attempts, total_tokens from extractions where id = $1', [id])
    ).rows[0];
    await db.end();
    expect(row.attempts).toBe(2);
    expect(Number(row.total_tokens)).toBe(done.totalTokens);
    // Two worker processes start and a stalled lock must expire: near a minute on a busy machine.
  }, 180_000);
});
