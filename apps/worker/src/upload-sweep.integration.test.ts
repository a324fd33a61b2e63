/**
 * The upload sweep against real PostgreSQL: retention removes the bytes of final extractions
 * past the threshold and keeps the row with its file description; pending and recent ones keep
 * their bytes; bytes no extraction references are removed past the grace period, uploads still
 * in flight are not.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresBlobStore, readAll, type BlobStore } from '@xt/blob-store';
import { accounts, createDb, extractions, schemas, type DbHandle } from '@xt/db';
import { removeExpiredUploads } from '@xt/extractions';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import { removeOrphanUploads, sweepUploads } from './upload-sweep.ts';

const HOUR = 3_600_000;

let database: TestDatabase;
let handle: DbHandle;
let store: BlobStore;
let accountId: string;
let schemaId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  // Hundreds of uploads are set up at once over four connections: they queue for longer than
  // the service's short wait for a connection on a busy machine.
  handle = createDb(database.url, { max: 4, connectTimeoutMs: 60_000 });
  store = createPostgresBlobStore(handle.db);
  const [account] = await handle.db
    .insert(accounts)
    .values({ name: `sweep-${randomUUID()}` })
    .returning();
  accountId = account!.id;
  const [schema] = await handle.db
    .insert(schemas)
    .values({ accountId, name: 'Invoice', structure: { type: 'object' } })
    .returning();
  schemaId = schema!.id;
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

type Status = 'pending' | 'processing' | 'completed' | 'failed';

/** An uploaded extraction as the API writes it (bytes and row in one transaction). */
async function uploaded(
  status: Status,
  finishedHoursAgo: number | null,
): Promise<{ id: string; ref: string }> {
  const bytes = randomBytes(3000);
  const id = randomUUID();
  const file = {
    name: 'invoice.pdf',
    size: bytes.length,
    contentType: 'application/pdf',
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  const ref = await handle.db.transaction(async (tx) => {
    const stored = await store.put(tx, Readable.from([bytes]));
    await tx.insert(extractions).values({
      id,
      accountId,
      schemaId,
      schemaName: 'Invoice',
      schemaStructure: { type: 'object' },
      sourceType: 'pdf',
      source: file.name,
      file,
      fileRef: stored.ref,
      model: 'gpt-4.1',
      status,
      charged: status === 'completed',
      finishedAt:
        finishedHoursAgo === null ? null : sql`now() - ${`${finishedHoursAgo} hours`}::interval`,
    });
    return stored.ref;
  });
  return { id, ref };
}

/** A completed URL extraction with citations, whose worker stored previews of pages 1 and 3. */
async function withPreviews(finishedHoursAgo: number): Promise<{ id: string; refs: string[] }> {
  const refs = [
    (await store.put(handle.db, Readable.from([randomBytes(800)]))).ref,
    (await store.put(handle.db, Readable.from([randomBytes(800)]))).ref,
  ];
  const id = randomUUID();
  await handle.db.insert(extractions).values({
    id,
    accountId,
    schemaId,
    schemaName: 'Invoice',
    schemaStructure: { type: 'object' },
    sourceType: 'pdf',
    source: 'https://example.com/invoice.pdf',
    model: 'gpt-4.1',
    status: 'completed',
    charged: true,
    citationsRequested: true,
    pageImages: { '1': refs[0]!, '3': refs[1]! },
    finishedAt: sql`now() - ${`${finishedHoursAgo} hours`}::interval`,
  });
  return { id, refs };
}

async function row(id: string) {
  const [found] = await handle.db.select().from(extractions).where(eq(extractions.id, id));
  return found;
}

const stored = (ref: string) =>
  readAll(store, ref, 1e6).then(
    () => true,
    () => false,
  );

async function chunkRows(ref: string): Promise<number> {
  const r = await handle.pool.query('select count(*)::int as n from blob_chunks where ref = $1', [
    ref,
  ]);
  return r.rows[0].n as number;
}

describe('retention', () => {
  it('removes the bytes of final extractions past the threshold, keeping the row and its file', async () => {
    const oldDone = await uploaded('completed', 30);
    const oldFailed = await uploaded('failed', 25);
    const recentDone = await uploaded('completed', 1);
    const pending = await uploaded('pending', null);
    const processing = await uploaded('processing', null);
    const before = await row(oldDone.id);

    expect(await removeExpiredUploads(handle.db, store, 24 * HOUR)).toBe(2);

    for (const gone of [oldDone, oldFailed]) {
      expect(await stored(gone.ref)).toBe(false);
      expect(await chunkRows(gone.ref)).toBe(0);
      const after = await row(gone.id);
      expect(after?.fileRef).toBeNull();
      expect(after?.file).toMatchObject({ name: 'invoice.pdf', size: 3000 });
      expect(after?.file?.removedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
      expect(Math.abs(Date.parse(after!.file!.removedAt!) - Date.now())).toBeLessThan(60_000);
    }
    // Nothing else about the record changes.
    const after = await row(oldDone.id);
    expect(after).toMatchObject({
      status: 'completed',
      charged: true,
      updatedAt: before!.updatedAt,
      file: { ...before!.file, removedAt: after!.file!.removedAt },
    });
    for (const kept of [recentDone, pending, processing]) {
      expect(await stored(kept.ref)).toBe(true);
      expect((await row(kept.id))?.fileRef).toBe(kept.ref);
      expect((await row(kept.id))?.file?.removedAt).toBeUndefined();
    }
    // A second sweep finds nothing more to do.
    expect(await removeExpiredUploads(handle.db, store, 24 * HOUR)).toBe(0);
  });

  it('removes page previews with the source, uploaded or not', async () => {
    const old = await withPreviews(30);
    const recent = await withPreviews(1);
    expect(await removeExpiredUploads(handle.db, store, 24 * HOUR)).toBe(1);
    for (const ref of old.refs) expect(await stored(ref)).toBe(false);
    const after = await row(old.id);
    expect(after?.pageImages).toBeNull();
    // A URL source has no file to mark as removed.
    expect(after?.file).toBeNull();
    for (const ref of recent.refs) expect(await stored(ref)).toBe(true);
    expect((await row(recent.id))?.pageImages).toEqual({
      '1': recent.refs[0],
      '3': recent.refs[1],
    });
    await handle.db.delete(extractions).where(eq(extractions.id, recent.id));
    await store.delete(handle.db, recent.refs);
  });

  it('lets several sweeps run at once, each file removed exactly once', async () => {
    const due = await Promise.all(Array.from({ length: 450 }, () => uploaded('completed', 48)));
    const counts = await Promise.all([
      removeExpiredUploads(handle.db, store, 24 * HOUR),
      removeExpiredUploads(handle.db, store, 24 * HOUR),
      removeExpiredUploads(handle.db, store, 24 * HOUR),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(due.length);
    const left = await handle.pool.query(
      'select count(*)::int as n from blobs where ref = any($1::uuid[])',
      [due.map((d) => d.ref)],
    );
    expect(left.rows[0].n).toBe(0);
  });
});

describe('reuse and retention', () => {
  it("ends the reuse of an upload's answer with its bytes, and keeps a URL's", async () => {
    const key = randomBytes(32);
    const oldUpload = await uploaded('completed', 30);
    const recentUpload = await uploaded('completed', 1);
    const oldUrl = await withPreviews(30);
    for (const { id } of [oldUpload, recentUpload, oldUrl])
      await handle.db.update(extractions).set({ reuseKey: key }).where(eq(extractions.id, id));
    await removeExpiredUploads(handle.db, store, 24 * HOUR);
    expect((await row(oldUpload.id))?.reuseKey).toBeNull();
    expect((await row(recentUpload.id))?.reuseKey).toEqual(key);
    // The URL's content was fetched, never stored: only its previews go.
    expect((await row(oldUrl.id))?.reuseKey).toEqual(key);
  });

  it("removes a reused copy's own previews on its own clock, never marking its upload removed", async () => {
    const original = await uploaded('completed', 30);
    const previews = [(await store.put(handle.db, Readable.from([randomBytes(800)]))).ref];
    await handle.db
      .update(extractions)
      .set({ pageImages: { '1': previews[0]! } })
      .where(eq(extractions.id, original.id));
    // As a create that reused it writes the copy (docs/reuse.md#evidence): the upload's bytes
    // not stored, the previews its own copies.
    const copied = await store.copy(handle.db, previews[0]!);
    const copyId = randomUUID();
    const source = await row(original.id);
    await handle.db.insert(extractions).values({
      id: copyId,
      accountId,
      schemaId,
      schemaName: 'Invoice',
      schemaStructure: { type: 'object' },
      sourceType: 'pdf',
      source: 'invoice.pdf',
      file: source!.file,
      model: 'gpt-4.1',
      status: 'completed',
      charged: false,
      reusedFrom: original.id,
      pageImages: { '1': copied },
      finishedAt: sql`now() - interval '1 hour'`,
    });

    await removeExpiredUploads(handle.db, store, 24 * HOUR);
    expect(await stored(previews[0]!)).toBe(false);
    expect(await stored(copied)).toBe(true);
    expect((await row(copyId))?.pageImages).toEqual({ '1': copied });

    await handle.db
      .update(extractions)
      .set({ finishedAt: sql`now() - interval '30 hours'` })
      .where(eq(extractions.id, copyId));
    await removeExpiredUploads(handle.db, store, 24 * HOUR);
    expect(await stored(copied)).toBe(false);
    const after = await row(copyId);
    expect(after?.pageImages).toBeNull();
    expect(after?.file).toEqual(source!.file);
    expect(after?.file?.removedAt).toBeUndefined();
  });
});

describe('orphans', () => {
  it('removes bytes no extraction references once past the grace period, never referenced ones', async () => {
    const owned = await uploaded('completed', 1);
    // The row went without its bytes, as when an account is deleted with its extractions.
    const deleted = await uploaded('completed', 1);
    await handle.db.delete(extractions).where(eq(extractions.id, deleted.id));
    // Bytes whose row never came, written outside a transaction (as an object store does).
    const stray = (await store.put(handle.db, Readable.from([randomBytes(10)]))).ref;
    await handle.pool.query(
      `update blobs set created_at = now() - interval '2 hours' where ref = any($1::uuid[])`,
      [[owned.ref, deleted.ref, stray]],
    );
    // Page previews are referenced from page_images, not file_ref.
    const previews = await withPreviews(1);
    await handle.pool.query(
      `update blobs set created_at = now() - interval '2 hours' where ref = any($1::uuid[])`,
      [previews.refs],
    );
    // Just as unreferenced, but younger than the grace period: its row may still be coming.
    const young = (await store.put(handle.db, Readable.from([randomBytes(10)]))).ref;

    expect(await removeOrphanUploads(handle.db, store, HOUR)).toBe(2);
    for (const ref of previews.refs) expect(await stored(ref)).toBe(true);
    expect(await stored(deleted.ref)).toBe(false);
    expect(await chunkRows(deleted.ref)).toBe(0);
    expect(await stored(stray)).toBe(false);
    expect(await stored(owned.ref)).toBe(true);
    expect(await stored(young)).toBe(true);
    await store.delete(handle.db, [young]);
  });

  it('leaves an upload whose transaction is still open, even with no grace period', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let putDone!: (ref: string) => void;
    const put = new Promise<string>((resolve) => (putDone = resolve));
    const id = randomUUID();
    const committing = handle.db.transaction(async (tx) => {
      const blob = await store.put(tx, Readable.from([randomBytes(5000)]));
      putDone(blob.ref);
      await hold;
      await tx.insert(extractions).values({
        id,
        accountId,
        schemaId,
        schemaName: 'Invoice',
        schemaStructure: { type: 'object' },
        sourceType: 'pdf',
        source: 'late.pdf',
        fileRef: blob.ref,
        model: 'gpt-4.1',
      });
    });
    const ref = await put;
    const swept = await sweepUploads(handle.db, store, { retentionMs: 0, orphanGraceMs: 0 });
    expect(swept.orphans).toBe(0);
    release();
    await committing;
    expect(await stored(ref)).toBe(true);
    expect((await row(id))?.fileRef).toBe(ref);
    // Once committed and referenced, a sweep with no grace at all still keeps it.
    await sweepUploads(handle.db, store, { retentionMs: 0, orphanGraceMs: 0 });
    expect(await stored(ref)).toBe(true);
  });
});
