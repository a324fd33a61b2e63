/**
 * One account's backlog does not starve another (docs/security.md#fair-scheduling): behind
 * 2,000 extractions queued by one account, an idle account's extraction is among the first a
 * worker starts. Before, the queue was first come first served and it started last.
 */
import pg from 'pg';
import pLimit from 'p-limit';
import { describe, expect } from 'vitest';
import { waitFor } from '@xt/testkit';
import { startTestWorker } from '@xt/api/testing';
import { stackTest } from '../support/stack.ts';

// No worker at first: the busy account's backlog must queue up before one starts.
const test = stackTest({
  api: { RATE_LIMIT_MAX: '100000', RATE_LIMIT_ACCOUNT_MAX: '100000' },
  worker: false,
  openApi: false,
});

const BACKLOG = 2_000;

describe('fair scheduling across accounts', () => {
  test("starts an idle account's extraction ahead of another account's backlog", async ({
    api,
    model,
    onTestFinished,
  }) => {
    const schemaOf = async (key: string) =>
      (
        await api.request('POST', '/v1/schemas', {
          key,
          json: {
            name: 'Fair',
            structure: { type: 'object', properties: { a: { type: 'string' } } },
          },
        })
      ).body.data.id as string;
    const busySchema = await schemaOf(api.keys.write);
    const idleSchema = await schemaOf(api.keys.other);
    const create = (key: string, schemaId: string, source: string) =>
      api.request('POST', '/v1/extractions', {
        key,
        json: { schema_id: schemaId, type: 'text', source },
        headers: { prefer: 'respond-async' },
      });

    // No worker yet: the busy account's backlog queues up first. Its first job alone, so that
    // it is the only one of rank 1: creates racing it would each read no unfinished extraction
    // and share that rank (a rank is a count read at the insert, not a lock).
    const first = await create(api.keys.write, busySchema, 'busy 0');
    const slot = pLimit(16);
    const backlog = await Promise.all(
      Array.from({ length: BACKLOG - 1 }, (_, i) =>
        slot(() => create(api.keys.write, busySchema, `busy ${i + 1}`)),
      ),
    );
    expect([first, ...backlog].every((r) => r.status === 202)).toBe(true);
    const idle = await create(api.keys.other, idleSchema, 'the idle account');
    expect(idle.status).toBe(202);
    const idleId = idle.body.data.id as string;

    // One job at a time, so the order the worker takes them in is the order they started.
    const worker = await startTestWorker(api, model.url, { WORKER_CONCURRENCY: '1' });
    // Killed, not stopped: a graceful stop would wait for the backlog's running job.
    onTestFinished(async () => void (await worker.stop('SIGKILL')));
    await waitFor(async () => {
      const got = await api.request('GET', `/v1/extractions/${idleId}`, { key: api.keys.other });
      return got.body.data.status === 'completed';
    }, 120_000);

    const db = new pg.Client({ connectionString: api.database.url });
    await db.connect();
    const { ahead, afterFirstMs } = (
      await db.query(
        `select count(*) filter (where e.id <> $1 and e.started_at < idle.started_at)::int as ahead,
                extract(epoch from idle.started_at - min(e.started_at)) * 1000 as "afterFirstMs"
           from extractions e, (select started_at from extractions where id = $1) idle
          group by idle.started_at`,
        [idleId],
      )
    ).rows[0] as { ahead: number; afterFirstMs: number };
    // A figure for the record, not a bound: the order below is what is asserted.
    console.log(
      `idle account's extraction started ${Math.round(afterFirstMs)} ms after the worker's first job`,
    );
    await db.end();
    // Each account's n-th waiting job comes before any account's (n+1)-th: only the busy
    // account's first job (the same rank, queued earlier) may start before it.
    expect(ahead).toBeLessThanOrEqual(1);
  }, 300_000);
});
