import { and, eq, sql } from 'drizzle-orm';
import type { ReviewDecision } from '@xt/contract';
import { extractions, type Db, type ExtractionRow } from '@xt/db';
import { recordEvent } from '@xt/webhooks';
import { AlreadyReviewed, ExtractionNotFound, ReviewRefused } from '../errors.ts';
import { applyCorrections } from './corrections.ts';

export interface ReviewInput {
  decision: ReviewDecision;
  /** JSON Pointer into the result → the value it should have been. */
  corrections: Record<string, unknown>;
  note: string | null;
  /** `key:<id>` or `user:<id>`: who decided. */
  reviewedBy: string;
}

/**
 * Decides a queued extraction's review (docs/review.md): the row is locked, checked, written
 * and its `extraction.reviewed` event recorded in one transaction, so a refused review writes
 * nothing and of two at once the second waits for the first and is then told it came too late.
 * `output` stays as read; the corrected copy is `reviewed_output` (null when rejected).
 */
export async function reviewExtraction(
  db: Db,
  accountId: string,
  id: string,
  input: ReviewInput,
): Promise<ExtractionRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(extractions)
      .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)))
      .for('update');
    if (!row) throw new ExtractionNotFound();
    if (row.reviewStatus === 'approved' || row.reviewStatus === 'rejected')
      throw new AlreadyReviewed(row.reviewStatus);
    if (row.reviewStatus !== 'needs_review')
      throw new ReviewRefused([
        {
          field: 'id',
          message:
            'this extraction is not queued for review (its schema’s review settings did not queue it when it completed)',
        },
      ]);
    const approve = input.decision === 'approve';
    if (!approve && Object.keys(input.corrections).length > 0)
      throw new ReviewRefused([
        { field: 'corrections', message: 'a rejected extraction takes no corrections' },
      ]);
    const corrected = applyCorrections(row.schemaStructure, row.output, input.corrections);
    if (corrected.errors.length > 0) throw new ReviewRefused(corrected.errors);
    const [updated] = await tx
      .update(extractions)
      .set({
        reviewStatus: approve ? 'approved' : 'rejected',
        reviewedOutput: approve ? corrected.result : null,
        reviewedAt: sql`now()`,
        reviewedBy: input.reviewedBy,
        reviewNote: input.note,
        updatedAt: sql`now()`,
      })
      .where(and(eq(extractions.id, id), eq(extractions.reviewStatus, 'needs_review')))
      .returning();
    if (!updated) throw new AlreadyReviewed('reviewed');
    await recordEvent(tx, updated, 'extraction.reviewed');
    return updated;
  });
}
