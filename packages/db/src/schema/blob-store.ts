/** The PostgreSQL blob store's tables: packages/blob-store owns them. */
import { bigint, index, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { ts, bytea } from './columns.ts';

/**
 * Uploaded files, as the PostgreSQL blob store keeps them (packages/blob-store). `blobs` is one
 * row per stored file; its bytes are `blob_chunks` rows of at most 1 MiB, so a file is written
 * and read as a stream of bounded pieces (never one 50 MiB value in memory, and never a bytea
 * parameter bigger than a chunk). Written in the same transaction as the extraction that uses
 * it. Extractions point here by `file_ref` without a foreign key: the reference is opaque, so
 * another store (an object store) can hold the bytes instead; the upload sweep removes blobs
 * no extraction references (docs/uploads.md).
 */
export const blobs = pgTable(
  'blobs',
  {
    ref: uuid('ref').primaryKey(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  // The orphan sweep walks blobs oldest first.
  (t) => [index('blobs_created_idx').on(t.createdAt)],
);

export const blobChunks = pgTable(
  'blob_chunks',
  {
    ref: uuid('ref')
      .notNull()
      .references(() => blobs.ref, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ref, t.seq] })],
);
