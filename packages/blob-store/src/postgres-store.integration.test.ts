import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@xt/db';
import { createTestDatabase, type TestDatabase } from '@xt/testkit';
import {
  BlobNotFoundError,
  CHUNK_BYTES,
  createPostgresBlobStore,
  readAll,
  type BlobStore,
} from './index.ts';

let database: TestDatabase;
let handle: DbHandle;
let store: BlobStore;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 2 });
  store = createPostgresBlobStore(handle.db);
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

/** `bytes` in uneven pieces, as a network stream delivers them. */
function pieces(bytes: Buffer): AsyncIterable<Uint8Array> {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const n = 1 + Math.floor(Math.random() * 200_000);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return Readable.from(out);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('PostgreSQL blob store', () => {
  it('stores a stream across chunk boundaries and gives back the same bytes in chunks', async () => {
    const bytes = randomBytes(Math.floor(CHUNK_BYTES * 2.5));
    const stored = await handle.db.transaction((tx) => store.put(tx, pieces(bytes)));
    expect(stored.size).toBe(bytes.length);
    const chunkSizes: number[] = [];
    for await (const chunk of store.get(stored.ref)) chunkSizes.push(chunk.length);
    expect(chunkSizes).toEqual([CHUNK_BYTES, CHUNK_BYTES, bytes.length - 2 * CHUNK_BYTES]);
    expect(sha(await readAll(store, stored.ref, bytes.length))).toBe(sha(bytes));
    await expect(readAll(store, stored.ref, bytes.length - 1)).rejects.toThrow(RangeError);
  });

  it('writes nothing when the caller rolls back', async () => {
    let ref = '';
    await expect(
      handle.db.transaction(async (tx) => {
        ref = (await store.put(tx, pieces(randomBytes(1000)))).ref;
        throw new Error('the row could not be written');
      }),
    ).rejects.toThrow('the row could not be written');
    await expect(readAll(store, ref, 10_000)).rejects.toThrow(/No stored bytes/);
    const chunks = await handle.pool.query(
      'select count(*)::int as n from blob_chunks where ref = $1',
      [ref],
    );
    expect(chunks.rows[0].n).toBe(0);
  });

  it('stores an empty stream, deletes, and lists what is older than a moment', async () => {
    const empty = await store.put(handle.db, pieces(Buffer.alloc(0)));
    expect((await readAll(store, empty.ref, 0)).length).toBe(0);
    const other = await store.put(handle.db, pieces(randomBytes(10)));
    const listed = await store.listCreatedBefore(new Date(Date.now() + 60_000), { limit: 100 });
    expect(listed).toEqual(expect.arrayContaining([empty.ref, other.ref]));
    expect(await store.listCreatedBefore(new Date(Date.now() - 60_000), { limit: 100 })).toEqual(
      [],
    );
    const [first] = [...listed].sort();
    expect(
      await store.listCreatedBefore(new Date(Date.now() + 60_000), { limit: 100, after: first }),
    ).not.toContain(first);

    await handle.db.transaction((tx) => store.delete(tx, [empty.ref, other.ref, empty.ref]));
    await expect(readAll(store, other.ref, 100)).rejects.toThrow(/No stored bytes/);
    const chunks = await handle.pool.query(
      'select count(*)::int as n from blob_chunks where ref = $1',
      [other.ref],
    );
    expect(chunks.rows[0].n).toBe(0);
    await store.delete(handle.db, [other.ref]);
  });

  it('copies bytes under a reference of their own that outlives the original', async () => {
    const bytes = randomBytes(Math.floor(CHUNK_BYTES * 1.5));
    const original = await store.put(handle.db, pieces(bytes));
    const copy = await handle.db.transaction((tx) => store.copy(tx, original.ref));
    expect(copy).not.toBe(original.ref);
    await store.delete(handle.db, [original.ref]);
    expect(sha(await readAll(store, copy, bytes.length))).toBe(sha(bytes));
    await expect(store.copy(handle.db, original.ref)).rejects.toBeInstanceOf(BlobNotFoundError);

    // A copy the caller rolls back leaves nothing behind.
    let rolledBack = '';
    await expect(
      handle.db.transaction(async (tx) => {
        rolledBack = await store.copy(tx, copy);
        throw new Error('the row could not be written');
      }),
    ).rejects.toThrow('the row could not be written');
    await expect(readAll(store, rolledBack, bytes.length)).rejects.toThrow(/No stored bytes/);
    await store.delete(handle.db, [copy]);
  });
});
