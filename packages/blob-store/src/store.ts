import type { Db } from '@xt/db';

/** The handle of an open transaction, or the database itself when there is none. */
export type DbExecutor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface StoredBlob {
  /** Opaque; only the store that issued it can read it. */
  ref: string;
  size: number;
}

export class BlobNotFoundError extends Error {
  constructor(ref: string) {
    super(`No stored bytes under reference ${ref}.`);
    this.name = 'BlobNotFoundError';
  }
}

/**
 * Where uploaded files live: put, get and delete by reference, as streams. The database row that
 * holds a reference is the truth; a store may briefly hold bytes no row references (swept by
 * `listCreatedBefore` + `delete`), never the reverse. Stores that can write through the caller's
 * transaction (PostgreSQL) do, so bytes and row commit or vanish together; the others (an object
 * store) write outside it and rely on the sweep (docs/uploads.md).
 */
export interface BlobStore {
  /**
   * Whether `put` and `delete` take part in the caller's transaction. When not, callers delete
   * bytes only after the transaction that dropped their references has committed.
   */
  readonly transactional: boolean;
  /** Streams `body` in under a new reference. Through `tx` where the store can. */
  put(tx: DbExecutor, body: AsyncIterable<Uint8Array>): Promise<StoredBlob>;
  /** The bytes in order, a piece at a time. Throws BlobNotFoundError when there are none. */
  get(ref: string): AsyncIterable<Buffer>;
  /**
   * A copy of the bytes under a new reference of its own (returned), which lives and goes independently of
   * the original (a reused extraction keeps its evidence when the original is deleted). Through
   * `tx` where the store can; the bytes are copied inside the store, never through this
   * process. Throws BlobNotFoundError when there are none.
   */
  copy(tx: DbExecutor, ref: string): Promise<string>;
  /** Removes the bytes (missing ones are not an error). Through `tx` where the store can. */
  delete(tx: DbExecutor, refs: readonly string[]): Promise<void>;
  /** References stored before `before`, in reference order, after `after` when paging. */
  listCreatedBefore(before: Date, opts: { limit: number; after?: string }): Promise<string[]>;
}
