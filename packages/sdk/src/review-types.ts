/** The review routes' types (docs/review.md): the queue's query, a decision, a data set's case. */
import type { ListQuery, ReviewStatus, SourceType, UploadedFile } from './types.ts';

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
