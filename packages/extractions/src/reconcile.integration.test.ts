/**
 * The reconciler gives the jobs it enqueues again their account's fair-scheduling priority, as
 * a create would (docs/security.md#fair-scheduling): after a Redis outage, one account's backlog
 * of jobless rows goes behind the others' work rather than ahead of every prioritised job. Before,
 * its jobs carried no priority, which BullMQ runs first.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@xt/db';
import { createRedis, EXTRACTION_QUEUE, type RedisConnection } from '@xt/queue';
import { createLogger } from '@xt/runtime';
import { createTestDatabase, testRedisUrl, uniquePrefix, type TestDatabase } from '@xt/testkit';
import { createReconciler } from './reconcile.ts';

const BACKLOG = 5;
let database: TestDatabase;
let handle: DbHandle;
let connection: RedisConnection;
let queue: Queue;
const prefix = uniquePrefix('reconcile');

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2 });
  connection = createRedis(testRedisUrl(), 'producer');
  queue = new Queue(EXTRACTION_QUEUE, { connection, prefix });
  await queue.waitUntilReady();
});

afterAll(async () => {
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await queue?.close();
  connection?.disconnect();
  await handle?.close();
  await database?.drop();
});

/** An account with a schema and `rows` pending extractions a minute old, none with a job. */
async function jobless(name: string, rows: number): Promise<string[]> {
  const { rows: made } = await handle.pool.query<{ id: string }>(
    `with account as (insert into accounts (name) values ($1) returning id),
          schema as (
            insert into schemas (account_id, name, structure)
            select id, 'Invoice', '{"type":"object","properties":{"total":{"type":"number"}}}'
              from account returning id, account_id, name, structure)
     insert into extractions (id, account_id, schema_id, schema_name, schema_structure,
       source_type, source, model, created_at)
     select gen_random_uuid(), account_id, id, name, structure, 'text', 'orphan ' || g, 'gpt-4.1',
       now() - interval '1 minute' + g * interval '1 millisecond'
       from schema, generate_series(1, $2) g
     returning id`,
    [name, rows],
  );
  return made.map((r) => r.id);
}

describe('the reconciler', () => {
  it("enqueues jobless rows with their account's priority, a backlog behind a single row", async () => {
    const backlog = await jobless('busy', BACKLOG);
    const [single] = await jobless('idle', 1);
    const reconciler = createReconciler({
      db: handle.db,
      queue,
      redis: connection,
      prefix,
      policy: { attempts: 1, backoffMs: 10 },
      afterMs: 1_000,
      staleProcessingMs: 60_000,
      logger: createLogger('silent', 'test'),
    });
    expect(await reconciler.runOnce()).toBe(BACKLOG + 1);

    const priority = async (id: string) => (await queue.getJob(id))?.opts.priority;
    for (const id of backlog) expect(await priority(id)).toBe(BACKLOG);
    expect(await priority(single!)).toBe(1);
    // BullMQ's order: the idle account's job first, then the backlog oldest first.
    const order = (await queue.getJobs(['prioritized', 'wait'], 0, -1, true)).map((j) => j.id);
    expect(order).toEqual([single, ...backlog]);
  });

  it("gives a split bundle's child left pending without a job its job", async () => {
    // A bundle's children are written by its job, then enqueued: a crash between the two
    // leaves them pending with no job (docs/split.md).
    const { rows } = await handle.pool.query<{ id: string }>(
      `with account as (insert into accounts (name) values ('bundle') returning id),
            parent as (
              insert into extractions (id, account_id, schema_id, schema_name, schema_structure,
                split, source_type, source, model, status)
              select gen_random_uuid(), id, null, '', '{"type":"object","properties":{}}',
                '{"classes":[{"name":"invoice"}],"other":true}', 'pdf', 'bundle.pdf', 'gpt-4.1',
                'processing'
                from account returning id, account_id)
       insert into extractions (id, account_id, parent_id, pages, schema_id, schema_name,
         schema_structure, source_type, source, model, created_at)
       select gen_random_uuid(), account_id, id, '{"from":1,"to":2,"of":2}', gen_random_uuid(),
         'Invoice', '{"type":"object","properties":{}}', 'pdf', 'bundle.pdf', 'gpt-4.1',
         now() - interval '1 minute'
         from parent
       returning id`,
    );
    const child = rows[0]!.id;
    const reconciler = createReconciler({
      db: handle.db,
      queue,
      redis: connection,
      prefix,
      policy: { attempts: 1, backoffMs: 10 },
      afterMs: 1_000,
      staleProcessingMs: 60_000,
      logger: createLogger('silent', 'test'),
    });
    await reconciler.runOnce();
    expect((await queue.getJob(child))?.data).toMatchObject({ extractionId: child });
  });
});
