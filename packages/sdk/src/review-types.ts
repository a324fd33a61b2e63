/** The review's types (docs/review.md); `types.ts` re-exports them. */
import type { ListQuery, SourceType, UploadedFile } from './types.ts';

/** `GET /reviews`: `status` is the review's status. */
export interface ReviewListQuery extends ListQuery {
  status?: ReviewStatus;
  schema_id?: string;
}

/** `POST /extractions/{id}/review`. */
export interface ReviewInput {
  decision: 'approve' | 'reject';
  /** JSON Pointer into `result` → its right value, e.g. `{ "/total": 12.5 }`; approve only */
  corrections?: Record<string, unknown>;
  note?: string | null;
}

/** One case of `GET /schemas/{id}/dataset`: an approved extraction as an evaluation case. */
export interface DatasetCase {
  /** the case's name: the extraction id */
  case: string;
  extractionId: string;
  type: SourceType;
  /** the text, the URL, or an uploaded file's name */
  source: string;
  /** an upload: its bytes through `extractions.file(id)` until `removedAt` */
  file: UploadedFile | null;
  /** the reviewed result */
  expected: unknown;
  /** the result as the model read it */
  recorded: unknown;
}

/** A schema's review settings (docs/review.md). */
export interface ReviewPolicy {
  /** a value whose citation confidence is below this queues the extraction */
  minConfidence: number;
  /** structure paths the checks look at, array items as `*` (`/lines/*` + `/amount`) */
  fields?: string[];
  /** the share 0–1 of completed extractions queued whatever their values */
  sample?: number;
}

export type ReviewStatus = 'needs_review' | 'approved' | 'rejected';
export type ReviewReasonCode = 'LOW_CONFIDENCE' | 'REQUIRED_NOT_FOUND' | 'SAMPLED';

export interface ReviewReason {
  code: ReviewReasonCode;
  /** the value's JSON Pointer; null for `SAMPLED` */
  path: string | null;
  message: string;
}

/** On an extraction its schema's review settings queued (docs/review.md). */
export interface Review {
  status: ReviewStatus;
  reasons: ReviewReason[];
  reviewedAt: string | null;
  /** `key:<api key id>` or `user:<dashboard user id>` */
  reviewedBy: string | null;
  note: string | null;
}
