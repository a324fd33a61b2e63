import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Citations } from '@xt/contract';
import type { BlobStore } from '@xt/blob-store';
import { extractions, type Db } from '@xt/db';
import { recordFinalEvent } from '@xt/webhooks';
import { copyEvidence, lockOriginalAnswer, reusedColumns } from './answer.ts';

export type ReuseOutcome =
  /** completed from the original, its event recorded */
  | 'completed'
  /** the original was deleted since the look-up: extract as usual */
  | 'original-gone'
  /** this extraction left `processing` meanwhile (deleted, or finished by another delivery) */
  | 'not-processing';

/**
 * processing → completed with an earlier extraction's answer (a URL source whose fetched
 * content matched, docs/reuse.md): uncharged, as one transaction with its webhook event.
 * Tokens an earlier attempt spent stay counted. The original's page previews are copied, as at
 * create, once this row is known to be the one completing.
 */
export function completeFromReuse(
  { db, store }: { db: Db; store: BlobStore },
  accountId: string,
  id: string,
  originalId: string,
): Promise<ReuseOutcome> {
  return db.transaction(async (tx) => {
    const original = await lockOriginalAnswer(tx, accountId, originalId);
    if (!original) return 'original-gone';
    const [row] = await tx
      .update(extractions)
      .set({
        ...reusedColumns(originalId, original),
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(extractions.id, id), eq(extractions.status, 'processing')))
      .returning();
    if (!row) return 'not-processing';
    const pageImages = await copyEvidence(store, tx, original.pageImages);
    if (pageImages) await tx.update(extractions).set({ pageImages }).where(eq(extractions.id, id));
    await recordFinalEvent(tx, row);
    return 'completed';
  });
}

/**
 * Records the key of a URL source's fetched content on its extraction, so that its answer,
 * once completed, can be reused. Written before the model call: the completion leaves it be.
 */
export async function recordReuseKey(db: Db, id: string, key: Buffer): Promise<void> {
  await db.update(extractions).set({ reuseKey: key }).where(eq(extractions.id, id));
}

/**
 * A URL source's copy left with no evidence (its original's previews already swept, while its
 * answer stays reusable, docs/reuse.md#evidence): its citations, for the worker to draw its own
 * from what it just fetched; null when it has evidence or nothing cited.
 */
export async function evidenceToDraw(db: Db, id: string): Promise<Citations | null> {
  const [row] = await db
    .select({ citations: extractions.citations })
    .from(extractions)
    .where(
      and(
        eq(extractions.id, id),
        eq(extractions.status, 'completed'),
        isNotNull(extractions.reusedFrom),
        isNull(extractions.pageImages),
      ),
    );
  return row?.citations ?? null;
}

/**
 * Records previews drawn for a copy by `evidenceToDraw`; false when the row is gone or has some
 * meanwhile (what was drawn is then left to the orphan sweep, like any unwritten preview).
 */
export async function recordDrawnEvidence(
  db: Db,
  id: string,
  pageImages: Record<string, string>,
): Promise<boolean> {
  const rows = await db
    .update(extractions)
    .set({ pageImages })
    .where(and(eq(extractions.id, id), isNull(extractions.pageImages)))
    .returning({ id: extractions.id });
  return rows.length > 0;
}
