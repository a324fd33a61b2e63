import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { blobChunks, blobs, type Db } from '@xt/db';
import { BlobNotFoundError, type BlobStore, type DbExecutor, type StoredBlob } from './store.ts';

/** Bytes per `blob_chunks` row: large enough for few round trips, small enough to hold. */
export const CHUNK_BYTES = 1024 * 1024;

/** Regroups arbitrary stream pieces into chunks of exactly `size` bytes (the last may be less). */
async function* rechunk(body: AsyncIterable<Uint8Array>, size: number): AsyncIterable<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of body) {
    let rest = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (pendingBytes + rest.length >= size) {
      const take = size - pendingBytes;
      pending.push(rest.subarray(0, take));
      // Copy: the caller may reuse its buffers, and the chunk must outlive this turn.
      yield Buffer.concat(pending, size);
      rest = rest.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (rest.length > 0) {
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/**
 * The default store: bytes in PostgreSQL, so every worker machine can read what any API process
 * received, with no other service to run. `put` and `delete` go through the caller's
 * transaction. Reading fetches one chunk per query, so a reader holds one chunk at a time.
 */
export function createPostgresBlobStore(db: Db): BlobStore {
  return {
    transactional: true,

    async put(tx: DbExecutor, body): Promise<StoredBlob> {
      const ref = randomUUID();
      // The parent row first (size fixed up at the end): chunks reference it.
      await tx.insert(blobs).values({ ref, size: 0 });
      let seq = 0;
      let size = 0;
      for await (const chunk of rechunk(body, CHUNK_BYTES)) {
        await tx.insert(blobChunks).values({ ref, seq, data: chunk });
        seq++;
        size += chunk.length;
      }
      await tx.update(blobs).set({ size }).where(eq(blobs.ref, ref));
      return { ref, size };
    },

    async *get(ref: string): AsyncIterable<Buffer> {
      const [blob] = await db.select({ size: blobs.size }).from(blobs).where(eq(blobs.ref, ref));
      if (!blob) throw new BlobNotFoundError(ref);
      for (let seq = 0; ; seq++) {
        const [row] = await db
          .select({ data: blobChunks.data })
          .from(blobChunks)
          .where(and(eq(blobChunks.ref, ref), eq(blobChunks.seq, seq)));
        if (!row) {
          // Deleted while being read: a partial file must not pass for a whole one.
          if (seq * CHUNK_BYTES < blob.size) throw new BlobNotFoundError(ref);
          return;
        }
        yield row.data;
      }
    },

    async copy(tx: DbExecutor, from: string): Promise<string> {
      const ref = randomUUID();
      // Inside the database: the chunks never leave it, and the copy commits with the caller.
      const copied = await tx.execute(sql`
        insert into ${blobs} (ref, size) select ${ref}::uuid, size from ${blobs} where ref = ${from}
        returning ref`);
      if (copied.rows.length === 0) throw new BlobNotFoundError(from);
      await tx.execute(sql`
        insert into ${blobChunks} (ref, seq, data)
        select ${ref}::uuid, seq, data from ${blobChunks} where ref = ${from}`);
      return ref;
    },

    async delete(tx: DbExecutor, refs): Promise<void> {
      if (refs.length === 0) return;
      // Locked in reference order first: sweeps in several workers may delete overlapping sets,
      // and rows locked in one order by everyone cannot deadlock. Chunks go with their blob
      // (ON DELETE CASCADE).
      const locked = tx
        .select({ ref: blobs.ref })
        .from(blobs)
        .where(inArray(blobs.ref, [...refs]))
        .orderBy(asc(blobs.ref))
        .for('update');
      await tx.delete(blobs).where(inArray(blobs.ref, locked));
    },

    async listCreatedBefore(before, { limit, after }): Promise<string[]> {
      const rows = await db
        .select({ ref: blobs.ref })
        .from(blobs)
        .where(
          and(
            lt(blobs.createdAt, sql`${before.toISOString()}::timestamptz`),
            after ? gt(blobs.ref, after) : undefined,
          ),
        )
        .orderBy(asc(blobs.ref))
        .limit(limit);
      return rows.map((r) => r.ref);
    },
  };
}
