import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { BlobStore } from '@xt/blob-store';
import type { SplitResult, StoredSplitPages, Structure, UploadedFile } from '@xt/contract';
import { extractions, type Db, type ExtractionRow } from '@xt/db';
import type { Spent } from './transitions.ts';

/*
 * A bundle split into its documents (docs/split.md): the parent's job writes its children and
 * its documents together, once, and waits for the children to be final.
 */

/** A child's id: the same for the same bundle and pages, so a second split run writes none twice. */
export function childExtractionId(parentId: string, pages: { from: number; to: number }): string {
  const h = createHash('sha256').update(`${parentId}:${pages.from}-${pages.to}`).digest();
  // A UUID of version 8 (custom) with the RFC 9562 variant.
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One document of the bundle read by a child extraction, with its own file. */
export interface NewChild {
  id: string;
  pages: StoredSplitPages;
  schema: { id: string; name: string; structure: Structure };
  sourceType: 'pdf' | 'image';
  /** The child's own bytes: its pages cut from the bundle, or a copy of the bundle's image. */
  bytes: Uint8Array;
  file: UploadedFile;
}

/**
 * Writes the bundle's children (pending, each with its own file and its class's schema
 * snapshot, citations, model, instruction and metadata as the parent's) and the parent's
 * documents and classification spend, in one transaction, only while the parent is
 * `processing`: false when it is not (deleted, or finished by another delivery), and nothing is
 * kept. A child already written (a second run) is left as it is.
 */
export async function recordSplit(
  deps: { db: Db; store: BlobStore },
  parent: ExtractionRow,
  children: NewChild[],
  result: SplitResult,
  spent: Spent,
): Promise<boolean> {
  const { db, store } = deps;
  const refs: string[] = [];
  const written = await db.transaction(async (tx) => {
    const [locked] = await tx
      .update(extractions)
      .set({
        output: result,
        totalTokens: sql`${extractions.totalTokens} + ${spent.tokens}`,
        inputTokens: sql`${extractions.inputTokens} + ${spent.usage.inputTokens}`,
        outputTokens: sql`${extractions.outputTokens} + ${spent.usage.outputTokens}`,
        cachedInputTokens: sql`${extractions.cachedInputTokens} + ${spent.usage.cachedInputTokens}`,
        costUsd: sql`${extractions.costUsd} + ${spent.costUsd}::double precision`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(extractions.id, parent.id), eq(extractions.status, 'processing')))
      .returning({ id: extractions.id });
    if (!locked) return false;
    for (const child of children) {
      const stored = await store.put(tx, Readable.from([Buffer.from(child.bytes)]));
      refs.push(stored.ref);
      const inserted = await tx
        .insert(extractions)
        .values({
          id: child.id,
          accountId: parent.accountId,
          parentId: parent.id,
          pages: child.pages,
          schemaId: child.schema.id,
          schemaName: child.schema.name,
          schemaStructure: child.schema.structure,
          sourceType: child.sourceType,
          source: parent.source,
          instruction: parent.instruction,
          metadata: parent.metadata,
          file: child.file,
          format: child.sourceType === 'pdf' ? 'pdf' : parent.format,
          fileRef: stored.ref,
          model: parent.model,
          citationsRequested: parent.citationsRequested,
          requestId: parent.requestId,
          // Its own file, cut for it: never read before, so nothing to reuse.
          reuseKey: null,
          cacheMaxAgeSeconds: null,
          priority: 'standard',
          status: 'pending',
        })
        .onConflictDoNothing()
        .returning({ id: extractions.id });
      if (inserted.length === 0) await store.delete(tx, [stored.ref]);
    }
    return true;
  });
  // A store outside the transaction keeps what a refused write stored: removed now (or swept).
  if (!written && !store.transactional && refs.length > 0)
    await store.delete(db, refs).catch(() => undefined);
  return written;
}

/** The bundle's children not yet final, with what the parent's job needs to re-enqueue them. */
export async function unfinishedChildren(db: Db, parentId: string) {
  return db
    .select({
      id: extractions.id,
      status: extractions.status,
      accountId: extractions.accountId,
      requestId: extractions.requestId,
      pages: extractions.pages,
    })
    .from(extractions)
    .where(
      and(
        eq(extractions.parentId, parentId),
        inArray(extractions.status, ['pending', 'processing']),
      ),
    );
}

/** The parent's row as its `await-children` step finds it. */
export async function splitParent(db: Db, id: string): Promise<ExtractionRow | undefined> {
  const [row] = await db.select().from(extractions).where(eq(extractions.id, id));
  return row;
}

/**
 * A parent whose job was handed back at shutdown (`pending`) taken again by its
 * `await-children` step, without counting an attempt: the step spends nothing.
 */
export async function resumeSplitParent(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(extractions)
    .set({ status: 'processing', updatedAt: sql`now()` })
    .where(and(eq(extractions.id, id), eq(extractions.status, 'pending')))
    .returning({ id: extractions.id });
  return rows.length > 0;
}
