import { and, eq, isNull } from 'drizzle-orm';
import { BlobNotFoundError, type BlobStore } from '@xt/blob-store';
import { extractions } from '@xt/db';
import type { Transaction } from '../create.ts';

/**
 * The original's answer, locked against deletion until the copy commits: a delete that comes
 * meanwhile waits, and one that came first leaves nothing to copy (a deleted extraction is never
 * reused). `savedUsd` is what the original's tokens cost, which the copy did not spend.
 */
export async function lockOriginalAnswer(tx: Transaction, accountId: string, originalId: string) {
  const [original] = await tx
    .select({
      output: extractions.output,
      citations: extractions.citations,
      warnings: extractions.warnings,
      savedUsd: extractions.costUsd,
      pageImages: extractions.pageImages,
    })
    .from(extractions)
    .where(
      and(
        eq(extractions.id, originalId),
        eq(extractions.accountId, accountId),
        eq(extractions.status, 'completed'),
        isNull(extractions.reusedFrom),
      ),
    )
    .for('share');
  return original;
}

export type OriginalAnswer = NonNullable<Awaited<ReturnType<typeof lockOriginalAnswer>>>;

/**
 * The copy's own evidence for the review view (docs/citations.md#page-previews): every page
 * preview and a spreadsheet's cells the original has, copied in the store under references of
 * the copy's own, so that each row owns what its `page_images` names and deleting either one,
 * or the sweep's removing either one's, never takes the other's. Called while the original is
 * locked: a delete of it waits, and the sweep passes it by. Where the store cannot join the
 * transaction (an object store), copies of a row that then fails to commit are orphans, which
 * the orphan sweep removes. A preview the store no longer has is left out, as the original's
 * view would show it. Null when there is nothing to show.
 */
export async function copyEvidence(
  store: BlobStore,
  tx: Transaction,
  pageImages: Record<string, string> | null,
): Promise<Record<string, string> | null> {
  const copied: Record<string, string> = {};
  for (const [key, ref] of Object.entries(pageImages ?? {})) {
    try {
      copied[key] = await store.copy(tx, ref);
    } catch (err) {
      if (!(err instanceof BlobNotFoundError)) throw err;
    }
  }
  return Object.keys(copied).length > 0 ? copied : null;
}

/** What a copy takes of its original: the answer, uncharged, no tokens of its own. */
export function reusedColumns(originalId: string, original: OriginalAnswer) {
  return {
    status: 'completed' as const,
    output: original.output,
    citations: original.citations,
    warnings: original.warnings,
    charged: false,
    reusedFrom: originalId,
    savedUsd: original.savedUsd,
    errorCode: null,
    errorMessage: null,
  };
}
