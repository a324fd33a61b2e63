/**
 * A delete that lands while the extraction's job is cutting its windows' PDFs: what the cut
 * records goes with the delete, its bytes included, and none is left to the orphan sweep.
 */
import type { Queue } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '@xt/blob-store';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, waitFor, type TestDatabase } from '@xt/testkit';
import { deleteExtraction } from './delete.ts';

let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 3 });
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

async function processing(): Promise<{ id: string; accountId: string }> {
  const { rows } = await handle.pool.query<{ id: string; account_id: string }>(
    `with account as (insert into accounts (name) values ('delete ' || gen_random_uuid()) returning id),
          schema as (
            insert into schemas (account_id, name, structure)
            select id, 'Rows', '{"type":"object","properties":{"rows":{"type":"array"}}}'
              from account returning id, account_id, name, structure)
     insert into extractions (id, account_id, schema_id, schema_name, schema_structure,
       source_type, source, model, status)
     select gen_random_uuid(), account_id, id, name, structure, 'pdf', 'long.pdf', 'gpt-4.1',
       'processing'
       from schema
     returning id, account_id`,
  );
  return { id: rows[0]!.id, accountId: rows[0]!.account_id };
}

describe('deleting an extraction', () => {
  it('takes the window PDFs a cut is recording meanwhile, their bytes with them', async () => {
    const { id, accountId } = await processing();
    const deleted: string[] = [];
    const store = {
      transactional: true,
      delete: (_tx: unknown, refs: string[]) => Promise.resolve(void deleted.push(...refs)),
    } as unknown as BlobStore;
    const queue = { getJob: () => Promise.resolve(undefined) } as unknown as Queue;

    // The cut's insert, not yet committed: it holds the extraction's key until it commits.
    const cut = await handle.pool.connect();
    try {
      await cut.query('begin');
      await cut.query(
        `insert into extraction_window_pdfs
           (extraction_id, window_index, ref, first_page, last_page, notes_pages)
         values ($1, 0, 'cut-window-0', 1, 10, false)`,
        [id],
      );
      const deleting = deleteExtraction(
        { db: handle.db, store, queue },
        accountId,
        id,
        pino({ level: 'silent' }),
      );
      // The delete waits on the cut's lock; then the cut commits.
      await waitFor(async () => {
        const { rows } = await handle.pool.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return rows[0]!.n > 0;
      }, 10_000);
      await cut.query('commit');
      await deleting;
    } finally {
      cut.release();
    }
    expect(deleted).toContain('cut-window-0');
    const { rows } = await handle.pool.query(
      'select 1 from extraction_window_pdfs where extraction_id = $1',
      [id],
    );
    expect(rows).toEqual([]);
  });
});
