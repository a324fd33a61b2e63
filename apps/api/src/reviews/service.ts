import { eq, isNotNull } from 'drizzle-orm';
import { extractions, type Db, type ExtractionRow } from '@xt/db';
import { findExtractionFile, reviewExtraction } from '@xt/extractions';
import type { Principal } from '@xt/accounts';
import { listConditions, listPage, type ListColumns } from '../http/listing/list-page.ts';
import type { ReviewBody, ReviewListQuery } from './body.ts';

const COLUMNS: ListColumns = {
  accountId: extractions.accountId,
  createdAt: extractions.createdAt,
  id: extractions.id,
  searchOn: extractions.schemaName,
};

/** Who decided a review, as records show it. */
export const reviewerOf = (principal: Principal): string =>
  principal.userId ? `user:${principal.userId}` : `key:${principal.keyId ?? 'unknown'}`;

/** The review queue and its decisions (docs/review.md); every query scoped to the account. */
export class ReviewService {
  constructor(private readonly db: Db) {}

  /** Queued extractions, newest first; counted, as the queue is a small part of the table. */
  list(accountId: string, q: ReviewListQuery) {
    return listPage(
      this.db,
      extractions,
      COLUMNS,
      listConditions(COLUMNS, accountId, q, [
        q.reviewStatus
          ? eq(extractions.reviewStatus, q.reviewStatus)
          : isNotNull(extractions.reviewStatus),
        q.schemaId ? eq(extractions.schemaId, q.schemaId) : undefined,
      ]),
      q,
    );
  }

  review(principal: Principal, id: string, body: ReviewBody): Promise<ExtractionRow> {
    return reviewExtraction(this.db, principal.accountId, id, {
      decision: body.decision,
      corrections: body.corrections ?? {},
      note: body.note ?? null,
      reviewedBy: reviewerOf(principal),
    });
  }

  /** Approved extractions of one schema, for the evaluation data set export. */
  approved(accountId: string, schemaId: string, q: ReviewListQuery) {
    return listPage(
      this.db,
      extractions,
      COLUMNS,
      listConditions(COLUMNS, accountId, q, [
        eq(extractions.schemaId, schemaId),
        eq(extractions.reviewStatus, 'approved'),
      ]),
      q,
    );
  }

  file(accountId: string, id: string) {
    return findExtractionFile(this.db, accountId, id);
  }
}
