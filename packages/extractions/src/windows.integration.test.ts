/**
 * The page windows' storage (docs/scaling.md#one-large-document): a window's answer is written
 * once, only while its extraction is `processing`, and goes with the extraction; windows of
 * extractions final past retention are removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import {
  listWindows,
  recordWindow,
  recordWindowPdfs,
  recordWindowSource,
  windowPdf,
  windowSource,
  removeExpiredWindows,
  storedWindows,
  windowRefs,
  type WindowResult,
} from './windows.ts';

let database: TestDatabase;
let handle: DbHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2 });
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

/** An extraction in `status`, finished `finishedAgo` ago when final. */
async function extraction(status: string, finishedAgo = '0 seconds'): Promise<string> {
  const { rows } = await handle.pool.query<{ id: string }>(
    `with account as (insert into accounts (name) values ('windows ' || gen_random_uuid()) returning id),
          schema as (
            insert into schemas (account_id, name, structure)
            select id, 'Rows', '{"type":"object","properties":{"rows":{"type":"array"}}}'
              from account returning id, account_id, name, structure)
     insert into extractions (id, account_id, schema_id, schema_name, schema_structure,
       source_type, source, model, status, finished_at)
     select gen_random_uuid(), account_id, id, name, structure, 'pdf', 'long.pdf', 'gpt-4.1',
       $1, case when $1 in ('completed', 'failed') then now() - $2::interval end
       from schema
     returning id`,
    [status, finishedAgo],
  );
  return rows[0]!.id;
}

const window = (extractionId: string, index: number, tokens = 10): WindowResult => ({
  extractionId,
  windowIndex: index,
  firstPage: index * 10 + 1,
  lastPage: index * 10 + 10,
  output: { rows: [index] },
  annotations: { quotes: [['/rows/0', String(index)]], probabilities: null },
  truncated: [],
  grounding: [{ page: index * 10 + 1, lines: [] }],
  pageImages: { [String(index * 10 + 1)]: `preview-${extractionId}-${index}` },
  imagesAsText: index === 1 ? { pages: 10, images: 0, leftOut: 0 } : null,
  tokens,
  usage: { inputTokens: tokens - 2, outputTokens: 2, cachedInputTokens: 0 },
  calls: 1,
});

describe('page windows', () => {
  it('are written once: a second run of a window keeps the first answer and its tokens', async () => {
    const id = await extraction('processing');
    expect(await recordWindow(handle.db, window(id, 1, 10))).toBe(true);
    expect(await recordWindow(handle.db, window(id, 0, 7))).toBe(true);
    expect(
      await recordWindow(handle.db, { ...window(id, 1, 99), output: { rows: ['again'] } }),
    ).toBe(false);
    const stored = await listWindows(handle.db, id);
    expect(stored.map((w) => [w.windowIndex, w.tokens, w.output])).toEqual([
      [0, 7, { rows: [0] }],
      [1, 10, { rows: [1] }],
    ]);
    expect(stored[0]?.annotations).toEqual({ quotes: [['/rows/0', '0']], probabilities: null });
    // What a window sent as text in place of its images is kept for the merged record's warning.
    expect(stored.map((w) => w.imagesAsText)).toEqual([null, { pages: 10, images: 0, leftOut: 0 }]);
    expect(await storedWindows(handle.db, id)).toEqual({
      indexes: [0, 1],
      pages: 20,
      tokens: 17,
      usage: { inputTokens: 13, outputTokens: 4, cachedInputTokens: 0 },
    });
  });

  it('are not written for an extraction deleted or no longer processing', async () => {
    const pending = await extraction('pending');
    expect(await recordWindow(handle.db, window(pending, 0))).toBe(false);
    const deleted = await extraction('processing');
    await handle.pool.query('delete from extractions where id = $1', [deleted]);
    expect(await recordWindow(handle.db, window(deleted, 0))).toBe(false);
    expect(await listWindows(handle.db, deleted)).toEqual([]);
  });

  it('go with their extraction', async () => {
    const id = await extraction('processing');
    await recordWindow(handle.db, window(id, 0));
    await handle.pool.query('delete from extractions where id = $1', [id]);
    expect(await listWindows(handle.db, id)).toEqual([]);
  });

  it('keep their previews referenced, and are removed once their extraction is final past retention', async () => {
    const old = await extraction('processing');
    const running = await extraction('processing');
    await recordWindow(handle.db, window(old, 0));
    await recordWindow(handle.db, window(running, 0));
    await handle.pool.query(
      "update extractions set status = 'failed', finished_at = now() - interval '2 hours' where id = $1",
      [old],
    );
    const refs = [`preview-${old}-0`, `preview-${running}-0`, 'preview-nobody'];
    expect((await windowRefs(handle.db, refs)).sort()).toEqual(refs.slice(0, 2).sort());
    expect(await removeExpiredWindows(handle.db, 3_600_000)).toEqual({ windows: 1, refs: [] });
    expect(await listWindows(handle.db, old)).toEqual([]);
    expect(await listWindows(handle.db, running)).toHaveLength(1);
    expect(await windowRefs(handle.db, refs)).toEqual([`preview-${running}-0`]);
  });

  it("keep a document's converted PDF once, referenced until removed past retention", async () => {
    const id = await extraction('processing');
    expect(await recordWindowSource(handle.db, id, { ref: `pdf-${id}`, notesPages: true })).toBe(
      true,
    );
    expect(await recordWindowSource(handle.db, id, { ref: `again-${id}`, notesPages: false })).toBe(
      false,
    );
    expect(await windowSource(handle.db, id)).toEqual({ ref: `pdf-${id}`, notesPages: true });
    expect(await windowRefs(handle.db, [`pdf-${id}`, `again-${id}`])).toEqual([`pdf-${id}`]);
    const pending = await extraction('pending');
    expect(await recordWindowSource(handle.db, pending, { ref: 'x', notesPages: false })).toBe(
      false,
    );

    await handle.pool.query(
      "update extractions set status = 'failed', finished_at = now() - interval '2 hours' where id = $1",
      [id],
    );
    expect(await removeExpiredWindows(handle.db, 3_600_000)).toEqual({
      windows: 0,
      refs: [`pdf-${id}`],
    });
    expect(await windowSource(handle.db, id)).toBeUndefined();
  });

  it("keep each window's own PDF once, referenced until removed past retention", async () => {
    const id = await extraction('processing');
    const pdf = (windowIndex: number, ref: string) => ({
      windowIndex,
      ref,
      firstPage: windowIndex * 40 + 1,
      lastPage: windowIndex * 40 + 40,
      notesPages: false,
    });
    expect(await recordWindowPdfs(handle.db, id, [pdf(0, `w0-${id}`), pdf(1, `w1-${id}`)])).toEqual(
      [],
    );
    // A second run of the extraction's job: its window 1 is not kept again; window 2 is new.
    expect(
      await recordWindowPdfs(handle.db, id, [pdf(1, `again-${id}`), pdf(2, `w2-${id}`)]),
    ).toEqual([`again-${id}`]);
    expect(await windowPdf(handle.db, id, 1)).toEqual(pdf(1, `w1-${id}`));
    expect(await windowPdf(handle.db, id, 3)).toBeUndefined();
    expect((await windowRefs(handle.db, [`w0-${id}`, `again-${id}`, `w2-${id}`])).sort()).toEqual(
      [`w0-${id}`, `w2-${id}`].sort(),
    );
    const pending = await extraction('pending');
    expect(await recordWindowPdfs(handle.db, pending, [pdf(0, 'x')])).toEqual(['x']);

    await handle.pool.query(
      "update extractions set status = 'failed', finished_at = now() - interval '2 hours' where id = $1",
      [id],
    );
    const removed = await removeExpiredWindows(handle.db, 3_600_000);
    expect(removed.refs.sort()).toEqual([`w0-${id}`, `w1-${id}`, `w2-${id}`].sort());
    expect(await windowPdf(handle.db, id, 0)).toBeUndefined();
  });
});
