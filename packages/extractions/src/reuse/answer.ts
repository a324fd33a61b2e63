import { and, eq, isNull } from 'drizzle-orm';
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
