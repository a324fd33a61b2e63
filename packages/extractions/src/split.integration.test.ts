/**
 * A bundle's children (docs/split.md): written with the parent's documents once, whatever runs
 * the split again (a crash after the commit, a stalled job handed on), only while the parent is
 * `processing`; the counters keep a parent, which has no schema, under the nil UUID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresBlobStore, type BlobStore } from '@xt/blob-store';
import { NO_USAGE, type SplitResult } from '@xt/contract';
import { eq } from 'drizzle-orm';
import { createDb, extractions, type DbHandle, type ExtractionRow } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { childExtractionId, recordSplit, unfinishedChildren, type NewChild } from './split.ts';

let database: TestDatabase;
let handle: DbHandle;
let store: BlobStore;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 3 });
  store = createPostgresBlobStore(handle.db);
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

const STRUCTURE = { type: 'object' as const, properties: { total: { type: 'number' as const } } };

async function parent(status = 'processing'): Promise<ExtractionRow> {
  const { rows } = await handle.pool.query<{ id: string }>(
    `with account as (insert into accounts (name) values ('split ' || gen_random_uuid()) returning id)
     insert into extractions (id, account_id, schema_id, schema_name, schema_structure, split,
       source_type, source, model, status)
     select gen_random_uuid(), id, null, '', '{"type":"object","properties":{}}',
       '{"classes":[{"name":"invoice"}],"other":true}', 'pdf', 'bundle.pdf', 'gpt-4.1', $1
       from account
     returning id`,
    [status],
  );
  const [row] = await handle.db.select().from(extractions).where(eq(extractions.id, rows[0]!.id));
  return row!;
}

function child(parentId: string, from: number, to: number): NewChild {
  return {
    id: childExtractionId(parentId, { from, to }),
    pages: { from, to, of: 4 },
    schema: { id: '7f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a', name: 'Invoice', structure: STRUCTURE },
    sourceType: 'pdf',
    bytes: Buffer.from(`%PDF-1.7 pages ${from}-${to}`),
    file: { name: 'bundle.pdf', size: 20, contentType: 'application/pdf', sha256: 'a'.repeat(64) },
  };
}

const spent = {
  tokens: 40,
  usage: { ...NO_USAGE, inputTokens: 30, outputTokens: 10 },
  costUsd: 0.001,
};

describe('recordSplit', () => {
  it('writes the children and the documents once, the spend once, however often it runs', async () => {
    const row = await parent();
    const children = [child(row.id, 1, 2), child(row.id, 3, 4)];
    const result: SplitResult = {
      documents: children.map((c) => ({
        class: 'invoice',
        pages: { from: c.pages.from, to: c.pages.to },
        confidence: 0.9,
        extractionId: c.id,
      })),
    };
    expect(await recordSplit({ db: handle.db, store }, row, children, result, spent)).toBe(true);
    // A second run cuts the same documents again: the same ids, nothing written twice.
    const again = [child(row.id, 1, 2), child(row.id, 3, 4)];
    expect(again.map((c) => c.id)).toEqual(children.map((c) => c.id));
    await recordSplit({ db: handle.db, store }, row, again, result, {
      ...spent,
      tokens: 0,
      costUsd: 0,
      usage: NO_USAGE,
    });
    const { rows } = await handle.pool.query(
      `select id, status, parent_id, pages, schema_id, file_ref from extractions where parent_id = $1 order by pages->>'from'`,
      [row.id],
    );
    expect(rows.map((r) => [r.status, r.pages])).toEqual([
      ['pending', { from: 1, to: 2, of: 4 }],
      ['pending', { from: 3, to: 4, of: 4 }],
    ]);
    // The second run's copies of the files are not kept.
    const { rows: blobs } = await handle.pool.query('select count(*)::int as n from blobs');
    expect(blobs[0].n).toBe(2);
    const { rows: parents } = await handle.pool.query(
      'select total_tokens, output from extractions where id = $1',
      [row.id],
    );
    expect(parents[0].total_tokens).toBe('40');
    expect(parents[0].output).toEqual(result);
    expect((await unfinishedChildren(handle.db, row.id)).map((c) => c.id).sort()).toEqual(
      children.map((c) => c.id).sort(),
    );
  });

  it('writes nothing for a parent no longer processing', async () => {
    const row = await parent('failed');
    const written = await recordSplit(
      { db: handle.db, store },
      row,
      [child(row.id, 1, 4)],
      { documents: [] },
      spent,
    );
    expect(written).toBe(false);
    const { rows } = await handle.pool.query(
      'select count(*)::int as n from extractions where parent_id = $1',
      [row.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('counts a parent under the nil UUID, and deletes its children with it', async () => {
    const row = await parent();
    await recordSplit(
      { db: handle.db, store },
      row,
      [child(row.id, 1, 4)],
      { documents: [] },
      spent,
    );
    const { rows } = await handle.pool.query(
      `select schema_id, sum(n)::int as n from extraction_counts where account_id = $1 group by 1 order by 1`,
      [row.accountId],
    );
    expect(rows).toEqual([
      { schema_id: '00000000-0000-0000-0000-000000000000', n: 1 },
      { schema_id: '7f1c2b1e-8f7a-4a57-9a3e-2f4b8c1d0e9a', n: 1 },
    ]);
    await handle.pool.query('delete from extractions where id = $1', [row.id]);
    const { rows: left } = await handle.pool.query(
      `select coalesce(sum(n), 0)::int as n from extraction_counts where account_id = $1`,
      [row.accountId],
    );
    expect(left[0].n).toBe(0);
  });
});
