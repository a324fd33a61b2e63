/**
 * The wire types of the API (docs/api.md), declared here rather than imported from
 * `@xt/contract` so the published SDK carries no runtime dependency (the contract brings zod)
 * and its `.d.ts` files stand alone. `apps/api/src/sdk/contract-types.test.ts` compares them
 * with what the service serialises, so drift fails typecheck.
 */

import type { SplitPages, SplitRequest } from './bundle-types.ts';
import type { WebhookEventType } from './webhook-types.ts';
import type { RecordSourceType, SourceFormat, SourceType } from './source-kinds.generated.ts';

export type ExtractionStatus = 'pending' | 'processing' | 'completed' | 'failed';
export type { SourceFormat, SourceType } from './source-kinds.generated.ts';
/**
 * A model name the service serves: `gpt-4.1` and `gpt-4.1-mini` by default, or any name its
 * operator configured (`client.models.list()` lists them).
 */
export type PublicModel = string;
/**
 * How the model's server holds answers to the schema (docs/models.md): `json_schema` enforces it,
 * `json_object` answers JSON with the schema in the prompt, `prompt` is read from its prose.
 */
export type StructuredOutputMode = 'json_schema' | 'json_object' | 'prompt';

/** What a model was found able to do; null fields were not told by its server. */
export interface ModelCapabilities {
  structuredOutput: StructuredOutputMode;
  /** false: pages and images reach it as OCR text */
  images: boolean;
  /** false: confidence comes from grounding alone */
  logprobs: boolean;
  contextTokens: number | null;
  outputTokens: number | null;
}

/** One entry of `GET /models`: a name `model` takes on create, never where it is served. */
export interface Model {
  id: PublicModel;
  /** used when a create names no model */
  default: boolean;
  /** null until the model has been probed (on its first extraction) */
  capabilities: ModelCapabilities | null;
  probedAt: string | null;
}

export type FailureCode =
  | 'SOURCE_UNREACHABLE'
  | 'SOURCE_FORBIDDEN'
  | 'SOURCE_TOO_LARGE'
  | 'SOURCE_UNSUPPORTED'
  | 'SOURCE_UNREADABLE'
  | 'MODEL_UNAVAILABLE'
  | 'MODEL_REFUSED'
  | 'MODEL_CONTEXT_TOO_SMALL'
  | 'OUTPUT_INVALID'
  | 'TIMEOUT'
  | 'INTERNAL';

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';

export interface FieldDefinition {
  type: FieldType;
  describe?: string;
  description?: string;
  required?: boolean;
  /** A non-negative integer as a number or numeric text, e.g. 3 or "3". */
  minLength?: number | string;
  maxLength?: number | string;
  enum?: string[];
  properties?: Record<string, FieldDefinition>;
  items?: FieldDefinition;
}

/** A schema's root: `object` with `properties`, or `array` with `items`. */
export type Structure = FieldDefinition & { type: 'object' | 'array' };

/** One entry of a 422 body; `field` uses dots for nesting and brackets for array positions. */
export interface FieldError {
  field: string;
  message: string;
}

export interface PaginationMeta {
  total: number;
  perPage: number;
  currentPage: number;
  lastPage: number;
  firstPage: number;
  firstPageUrl: string;
  lastPageUrl: string;
  nextPageUrl: string | null;
  previousPageUrl: string | null;
}

export interface Page<T> {
  data: T[];
  meta: PaginationMeta;
}

/** Query of every list route; `YYYY-MM-DD` dates are whole UTC days, both inclusive. */
export interface ListQuery {
  page?: number;
  limit?: number;
  startDate?: string;
  endDate?: string;
  search?: string;
}

export interface ExtractionListQuery extends ListQuery {
  status?: ExtractionStatus;
  schema_id?: string;
  /** a bundle's id: only the extractions of its documents (docs/split.md) */
  parent_id?: string;
}

export interface Schema {
  id: string;
  name: string;
  description: string | null;
  structure: Structure;
  /** only when set: when completed extractions are queued for review (docs/review.md) */
  review?: ReviewPolicy;
  createdAt: string;
  updatedAt: string;
}

export interface SchemaInput {
  name: string;
  description?: string | null;
  structure: Structure;
  /** null removes it */
  review?: ReviewPolicy | null;
}

export interface UploadedFile {
  name: string;
  size: number;
  contentType: string;
  sha256: string;
  /** When the bytes were removed after the retention period; absent while they are stored. */
  removedAt?: string;
}

/** Where a leaf value was found in the source (docs/citations.md). */
export interface Citation {
  /** true only when the service itself found the value's evidence in the source */
  grounded: boolean;
  quote: string | null;
  /** 1-based page for pdf (1 for image); null for text and webpages */
  page: number | null;
  /** `[x0, y0, x1, y1]` per line of the quote, fractions of the page, origin top left */
  boxes: [number, number, number, number][];
  /**
   * text sources: `text.slice(start, end)` is the quote, `text` being `source.content` as sent or
   * an uploaded file's text as decoded (without its byte-order mark)
   */
  start: number | null;
  end: number | null;
  confidence: number | null;
  /** found on OCR words (a scan, an image): the engine's lowest confidence in them, 0–1 */
  ocrConfidence?: number;
  /** `uncertain`: found only on OCR words read with low confidence; the reading may be wrong */
  reading?: 'uncertain';
  /** spreadsheets: the sheet's name */
  sheet?: string;
  /** spreadsheets: the cell, an A1 reference such as `B7` */
  cell?: string;
  /** emails: `body`, or the attachment's file name; `page` and `boxes` are within it */
  part?: string;
}

/** Keyed by JSON Pointer into the output, e.g. `/lines/3/amount`. */
export type Citations = Record<string, Citation>;

export type WarningCode =
  | 'OUTPUT_TRUNCATED'
  | 'SOURCE_TRUNCATED'
  | 'UNGROUNDED_VALUES'
  | 'IMAGES_READ_AS_TEXT'
  | 'REVISIONS_ACCEPTED';

export interface ExtractionWarning {
  code: WarningCode;
  path: string;
  message: string;
}

/** How soon the model is called (docs/batch.md): `batch` is cheaper and may take hours. */
export type ExtractionPriority = 'standard' | 'batch';

/** On an extraction that took an earlier one's answer (docs/reuse.md): 0 tokens, uncharged. */
export interface Reused {
  extractionId: string;
}

/** While `processing`: pages finished of the pages the source was read as (0 until read). */
export interface Progress {
  pagesDone: number;
  pagesTotal: number;
}

/**
 * Model tokens over every call of the extraction, as the provider reported them, and what they
 * cost at the service's price table (docs/cost.md). All zero for a reused answer.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** the part of `inputTokens` read from the provider's prompt cache */
  cachedInputTokens: number;
  estimatedCostUsd: number;
}

export interface ExtractionError {
  code: FailureCode;
  message: string;
}

/** `GET /extractions/{id}`: `source`/`result`, `totalTokens` a number. */
export interface Extraction {
  id: string;
  /** null on a bundle (created with `split`) */
  schemaId: string | null;
  source: {
    type: RecordSourceType;
    content: string;
    file?: UploadedFile;
    format?: SourceFormat;
  };
  result: unknown;
  status: ExtractionStatus;
  createdAt: string;
  totalTokens: number;
  usage: Usage;
  charged: boolean;
  error: ExtractionError | null;
  metadata: Record<string, string>;
  updatedAt: string;
  /** only when created with `citations: true`; null until completed */
  citations?: Citations | null;
  /** only when non-empty */
  warnings?: ExtractionWarning[];
  /** only when the answer was reused from an earlier extraction */
  reused?: Reused;
  priority: ExtractionPriority;
  /** only while processing */
  progress?: Progress;
  /** only when queued for review */
  review?: Review;
  /** once reviewed: the corrected output (approved) or null (rejected) */
  reviewedResult?: unknown;
  /** only on a bundle: the split it was created with; its `result` is a `SplitResult` */
  split?: SplitRequest;
  /** only on a bundle's document: the bundle's id */
  parentId?: string;
  /** only on a bundle's document: its pages in the bundle (citations use these numbers) */
  pages?: SplitPages;
}

/** `GET /extractions` records: `input`/`output`, `totalTokens` as numeric text. */
export interface ExtractionListItem {
  id: string;
  createdAt: string;
  charged: boolean;
  input: {
    /** null on a bundle */
    schema_id: string | null;
    type: SourceType;
    source: string;
    file?: UploadedFile;
    format?: SourceFormat;
    instruction?: string;
    /** only on a bundle */
    split?: SplitRequest;
  };
  output: unknown;
  status: ExtractionStatus;
  totalTokens: string;
  usage: Usage;
  error: ExtractionError | null;
  metadata: Record<string, string>;
  citations?: Citations | null;
  warnings?: ExtractionWarning[];
  reused?: Reused;
  priority: ExtractionPriority;
  /** only while processing */
  progress?: Progress;
  /** only when queued for review */
  review?: Review;
  /** once reviewed: the corrected output (approved) or null (rejected) */
  reviewedResult?: unknown;
  /** only on a bundle's document: the bundle's id */
  parentId?: string;
  /** only on a bundle's document: its pages in the bundle */
  pages?: SplitPages;
}

/** What `POST /extractions` answers with: 200 when finished in time, 202 otherwise. */
export interface ExtractionOutcome {
  id: string;
  status: ExtractionStatus;
  output: unknown;
  totalTokens: number;
  /** Completed, when created with `citations: true`: where each leaf value was found. */
  citations?: Citations;
  /** Completed, when non-empty: what the service knows it left undone. */
  warnings?: ExtractionWarning[];
  /** Completed at once from an earlier extraction's answer (docs/reuse.md). */
  reused?: Reused;
}

/** The body of a webhook request (docs/webhooks.md#events). */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  data: Extraction;
  metadata: Record<string, string>;
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
