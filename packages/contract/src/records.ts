import { z } from 'zod';
import {
  CitationsSchema,
  ExtractionWarningSchema,
  type Citations,
  type ExtractionWarning,
} from './citations.ts';
import type { FailureCode } from './failure-codes.ts';
import {
  RECORD_SOURCE_TYPES,
  recordSourceType,
  SOURCE_TYPES,
  type FormatName,
  type SourceType,
} from './source-kinds.ts';
import {
  ExtractionErrorSchema,
  FormatSchema,
  MetadataSchema,
  ModelOutputSchema,
  ProgressSchema,
  ReusedSchema,
  TimestampSchema,
  UploadedFileSchema,
  UsageSchema,
  type RecordUsage,
  type UploadedFile,
} from './record-parts.ts';
import { PrioritySchema, type ExtractionPriority } from './priority.ts';
import { EXTRACTION_STATUSES, type ExtractionStatus } from './states.ts';
import { formatTimestamp } from './time.ts';
import {
  RecordReviewSchema,
  type RecordReview,
  type ReviewReason,
  type ReviewStatus,
} from './review.ts';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.ts';
import {
  splitOfStored,
  SplitPagesSchema,
  SplitRequestSchema,
  type SplitPages,
  type StoredSplit,
  type StoredSplitPages,
} from './split.ts';

/*
 * The records' shapes as zod schemas: the serializers below are typed from them and the API's
 * OpenAPI document is generated from them, so the records, the webhook events that carry them
 * and the document cannot disagree.
 */

/**
 * The fields both records end with, in this order, most present only where they apply (`tailOf`
 * below writes them); `parentId` and `pages` only on a document of a split bundle (docs/split.md).
 */
const TAIL_SHAPE = {
  citations: CitationsSchema.nullable().optional().meta({
    description:
      'present only when the extraction was created with `citations: true`; null until completed (docs/citations.md)',
  }),
  warnings: z.array(ExtractionWarningSchema).min(1).optional().meta({
    description: 'what the service knows it left undone; present only when non-empty',
  }),
  reused: ReusedSchema,
  priority: PrioritySchema,
  progress: ProgressSchema,
  review: RecordReviewSchema,
  reviewedResult: ModelOutputSchema.optional().meta({
    description:
      'present once reviewed: the output with the reviewer’s corrections (approved), or null (rejected); `result`/`output` stay as read',
  }),
  parentId: z.uuid().optional().meta({
    description: 'present on a document of a split bundle: the bundle’s extraction (docs/split.md)',
  }),
  pages: SplitPagesSchema.optional().meta({
    description: 'present on a document of a split bundle: its pages in the bundle',
  }),
};

/** Both records' schema id (`input.schema_id`, `schemaId`) and source (`input.source`, `source.content`). */
const SchemaIdSchema = z.uuid().nullable().meta({
  description: 'null for a bundle split into its documents (`split`): each class names its own',
});
const SourceSchema = z.string().meta({
  description: 'the text, the URL, or an uploaded file’s name',
});

export const ListRecordSchema = z
  .object({
    id: z.uuid(),
    createdAt: TimestampSchema,
    charged: z.boolean(),
    input: z.object({
      schema_id: SchemaIdSchema,
      type: z.enum(SOURCE_TYPES),
      source: SourceSchema,
      file: UploadedFileSchema.optional(),
      format: FormatSchema.optional(),
      instruction: z.string().optional(),
      split: SplitRequestSchema.optional(),
    }),
    output: ModelOutputSchema.meta({ description: 'null unless completed' }),
    status: z.enum(EXTRACTION_STATUSES),
    totalTokens: z.string().regex(/^\d+$/).meta({ description: 'numeric text' }),
    usage: UsageSchema,
    error: ExtractionErrorSchema,
    metadata: MetadataSchema,
    ...TAIL_SHAPE,
  })
  .meta({ id: 'ExtractionListRecord' });

export const SingleRecordSchema = z
  .object({
    id: z.uuid(),
    schemaId: SchemaIdSchema,
    source: z.object({
      type: z.enum(RECORD_SOURCE_TYPES),
      content: SourceSchema,
      file: UploadedFileSchema.optional(),
      format: FormatSchema.optional(),
    }),
    result: ModelOutputSchema.meta({ description: 'null unless completed' }),
    status: z.enum(EXTRACTION_STATUSES),
    createdAt: TimestampSchema,
    totalTokens: z.int().min(0),
    usage: UsageSchema,
    charged: z.boolean(),
    error: ExtractionErrorSchema,
    metadata: MetadataSchema,
    updatedAt: TimestampSchema,
    split: SplitRequestSchema.optional(),
    ...TAIL_SHAPE,
  })
  .meta({ id: 'Extraction' });

export type ListRecord = z.output<typeof ListRecordSchema>;
export type SingleRecord = z.output<typeof SingleRecordSchema>;

/**
 * The public records of an extraction, built from what is stored. Shared by the API (which
 * answers with them) and the worker (which sends the single record in webhook events), so the
 * two can never disagree. `ExtractionRow` of `@xt/db` has this shape.
 */
export interface StoredExtraction {
  id: string;
  /** Null for a split parent (docs/split.md): each class names its own schema. */
  schemaId: string | null;
  sourceType: SourceType;
  source: string;
  instruction: string | null;
  status: ExtractionStatus;
  output: unknown;
  totalTokens: number;
  /** What the provider reported, summed, and its cost at the time (docs/cost.md). */
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  costUsd: number;
  charged: boolean;
  errorCode: FailureCode | null;
  errorMessage: string | null;
  metadata: Record<string, string>;
  /** An uploaded source's file (docs/uploads.md); null for text and URLs. */
  file: UploadedFile | null;
  /** A file source's format (docs/sources.md); null for text, webpages, unfetched URLs. */
  format: FormatName | null;
  /** Created with `citations: true` (docs/citations.md). */
  citationsRequested: boolean;
  /** Set with the output when citations were asked for. */
  citations: Citations | null;
  /** What was left undone or done otherwise (WARNING_CODES); [] or null for none. */
  warnings: ExtractionWarning[] | null;
  /** The extraction whose answer this one reused (docs/reuse.md); null for work of its own. */
  reusedFrom: string | null;
  /** `batch`: sent through the provider's batch interface (docs/batch.md). */
  priority: ExtractionPriority;
  /** Pages finished and pages in all, kept while `processing` (docs/api.md#progress). */
  pagesDone: number;
  pagesTotal: number;
  /** Human review (docs/review.md): null or absent for an extraction never queued. */
  reviewStatus?: ReviewStatus | null;
  reviewReasons?: ReviewReason[] | null;
  reviewedOutput?: unknown;
  reviewedAt?: Date | null;
  reviewedBy?: string | null;
  reviewNote?: string | null;
  /** A split parent's request (docs/split.md); null or absent otherwise. */
  split?: StoredSplit | null;
  /** A split child's bundle and pages in it; null or absent otherwise. */
  parentId?: string | null;
  pages?: StoredSplitPages | null;
  createdAt: Date;
  updatedAt: Date;
}

function errorOf(row: StoredExtraction): { code: FailureCode; message: string } | null {
  if (row.status !== 'failed') return null;
  return {
    code: row.errorCode ?? 'INTERNAL',
    message: row.errorMessage ?? 'The extraction failed.',
  };
}

/** `citations` only when asked for, `warnings` only when there are some (docs/citations.md). */
function groundingOf(row: StoredExtraction): {
  citations?: Citations | null;
  warnings?: ExtractionWarning[];
} {
  const completed = row.status === 'completed';
  return {
    ...(row.citationsRequested ? { citations: completed ? (row.citations ?? {}) : null } : {}),
    ...(completed && row.warnings && row.warnings.length > 0 ? { warnings: row.warnings } : {}),
  };
}

/** `reused` only on an extraction that took an earlier one's answer (docs/reuse.md). */
function reusedOf(row: StoredExtraction): { reused?: { extractionId: string } } {
  return row.reusedFrom ? { reused: { extractionId: row.reusedFrom } } : {};
}

/** `progress` only while processing (docs/api.md#progress). */
function progressOf(row: StoredExtraction): {
  progress?: { pagesDone: number; pagesTotal: number };
} {
  if (row.status !== 'processing') return {};
  return {
    progress: { pagesDone: Math.min(row.pagesDone, row.pagesTotal), pagesTotal: row.pagesTotal },
  };
}

/** `review` only for a queued extraction; `reviewedResult` once it was decided (docs/review.md). */
function reviewOf(row: StoredExtraction): { review?: RecordReview; reviewedResult?: unknown } {
  if (!row.reviewStatus) return {};
  const review: RecordReview = {
    status: row.reviewStatus,
    reasons: row.reviewReasons ?? [],
    reviewedAt: row.reviewedAt ? formatTimestamp(row.reviewedAt) : null,
    reviewedBy: row.reviewedBy ?? null,
    note: row.reviewNote ?? null,
  };
  if (row.reviewStatus === 'needs_review') return { review };
  return { review, reviewedResult: row.reviewedOutput ?? null };
}

/** `parentId` and `pages` only on a document of a split bundle (docs/split.md). */
function splitChildOf(row: StoredExtraction): { parentId?: string; pages?: SplitPages } {
  if (!row.parentId) return {};
  return {
    parentId: row.parentId,
    ...(row.pages ? { pages: { from: row.pages.from, to: row.pages.to } } : {}),
  };
}

/** Cost to the hundred-millionth of a dollar: a sum of float prices has noise below that. */
function usageOf(row: StoredExtraction): RecordUsage {
  return {
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cachedInputTokens: row.cachedInputTokens,
    estimatedCostUsd: Math.round(row.costUsd * 1e8) / 1e8,
  };
}

/** The fields of TAIL_SHAPE, each only where it applies. */
function tailOf(row: StoredExtraction): Pick<SingleRecord, keyof typeof TAIL_SHAPE> {
  return {
    ...groundingOf(row),
    ...reusedOf(row),
    priority: row.priority,
    ...progressOf(row),
    ...reviewOf(row),
    ...splitChildOf(row),
  };
}

/** The list record: `input`/`output`, `totalTokens` as numeric text. */
export function serializeListRecord(row: StoredExtraction): ListRecord {
  const input: ListRecord['input'] = {
    schema_id: row.schemaId,
    type: row.sourceType,
    source: row.source,
  };
  if (row.file) input.file = row.file;
  if (row.format) input.format = row.format;
  if (row.instruction !== null) input.instruction = row.instruction;
  if (row.split) input.split = splitOfStored(row.split);
  return {
    id: row.id,
    createdAt: formatTimestamp(row.createdAt),
    charged: row.charged,
    input,
    output: row.status === 'completed' ? row.output : null,
    status: row.status,
    totalTokens: String(row.totalTokens),
    usage: usageOf(row),
    error: errorOf(row),
    metadata: row.metadata,
    ...tailOf(row),
  };
}

/** The get-by-id record: `source`/`result`, `totalTokens` as a number. */
export function serializeSingleRecord(row: StoredExtraction): SingleRecord {
  return {
    id: row.id,
    schemaId: row.schemaId,
    source: {
      type: recordSourceType(row.sourceType),
      content: row.source,
      // An upload: `content` is the file name, and this is the file (docs/uploads.md).
      ...(row.file ? { file: row.file } : {}),
      ...(row.format ? { format: row.format } : {}),
    },
    result: row.status === 'completed' ? row.output : null,
    status: row.status,
    createdAt: formatTimestamp(row.createdAt),
    totalTokens: row.totalTokens,
    usage: usageOf(row),
    charged: row.charged,
    error: errorOf(row),
    metadata: row.metadata,
    updatedAt: formatTimestamp(row.updatedAt),
    ...(row.split ? { split: splitOfStored(row.split) } : {}),
    ...tailOf(row),
  };
}

/** The body of a webhook delivery: the event, with the extraction's single record (docs/webhooks.md). */
export const WebhookEventSchema = z
  .object({
    id: z.uuid().meta({ description: 'the event id; also the `webhook-id` header' }),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    createdAt: TimestampSchema,
    data: SingleRecordSchema,
    metadata: MetadataSchema,
  })
  .meta({ id: 'WebhookEvent' });

export type WebhookEvent = z.output<typeof WebhookEventSchema>;
