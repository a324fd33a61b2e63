import { z } from 'zod';
import { FAILURE_CODES } from './failure-codes.ts';
import { FORMATS, type FormatName } from './source-kinds.ts';

/*
 * The parts both records are built of (records.ts): each a zod schema
 * with its OpenAPI name and description, so the document and the serializers share them.
 */

/** ISO 8601 with milliseconds and an explicit offset, as `formatTimestamp` writes it. */
export const TimestampSchema = z.iso
  .datetime({ offset: true, precision: 3 })
  .meta({ id: 'Timestamp', examples: ['2026-11-21T09:30:00.000+00:00'] });

export const UploadedFileSchema = z
  .object({
    name: z.string(),
    size: z.int().min(0),
    contentType: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    removedAt: TimestampSchema.optional().meta({
      description: 'when the bytes were removed after the retention period; absent while stored',
    }),
  })
  .meta({ id: 'UploadedFile', description: 'an uploaded source file (docs/uploads.md)' });

/** What the records show of an uploaded file. */
export type UploadedFile = z.output<typeof UploadedFileSchema>;

export const MetadataSchema = z.record(z.string().min(1).max(40), z.string().max(500)).meta({
  id: 'Metadata',
  description:
    'the client’s own labels: at most 16 keys of 1–40 characters, string values of at most 500; never sent to the model',
  maxProperties: 16,
});

/** A file source's format, recognised by its content (docs/sources.md). */
export const FormatSchema = z.enum(Object.keys(FORMATS) as [FormatName, ...FormatName[]]).meta({
  id: 'SourceFormat',
  description:
    'the format of a file source, recognised by its content; absent for typed text and webpages, and for a URL until it is fetched',
});

export const ExtractionErrorSchema = z
  .object({ code: z.enum(FAILURE_CODES), message: z.string() })
  .nullable()
  .meta({ id: 'ExtractionError', description: 'null unless the extraction failed' });

/**
 * The model's output: JSON shaped by the schema's structure, an object (or an array when the
 * structure's root is one). Spelled out with `additionalProperties` and `items` so generated
 * clients type it as a JSON object they can read fields of, not as `{}`.
 */
export const MODEL_OUTPUT_JSON_SCHEMA = {
  anyOf: [
    { type: 'object', additionalProperties: {} },
    { type: 'array', items: {} },
  ],
};

export const ReusedSchema = z
  .object({
    extractionId: z.uuid().meta({
      description: 'the earlier extraction of this account whose answer this one took',
    }),
  })
  .optional()
  .meta({
    id: 'Reused',
    description:
      'present only when the answer was reused from an earlier extraction with the same source, schema structure, instruction, model and citations: completed at once, 0 tokens, uncharged (docs/reuse.md)',
  });

export const ProgressSchema = z
  .object({
    pagesDone: z.int().min(0).meta({ description: 'pages whose model calls have finished' }),
    pagesTotal: z.int().min(0).meta({
      description:
        'pages the source was read as; 0 until it is read, and for a source read as one piece (typed text, a single image or page)',
    }),
  })
  .optional()
  .meta({
    id: 'Progress',
    description:
      'present only while `processing`: how far the work has come, updated as pages finish (about once a second)',
  });

export const UsageSchema = z
  .object({
    inputTokens: z.int().min(0).meta({ description: 'prompt tokens the provider reported' }),
    outputTokens: z.int().min(0).meta({ description: 'answer tokens the provider reported' }),
    cachedInputTokens: z.int().min(0).meta({
      description:
        'the part of `inputTokens` the provider read from its prompt cache, billed at the cached price',
    }),
    estimatedCostUsd: z.number().min(0).meta({
      description:
        'what the tokens cost at the service’s price table when they were spent; 0 for a reused answer',
    }),
  })
  .meta({
    id: 'Usage',
    description:
      'model tokens over every call of the extraction (chunks, continuations, repairs, failed attempts) and their estimated cost; `totalTokens` is `inputTokens + outputTokens` (docs/cost.md)',
  });

export type RecordUsage = z.output<typeof UsageSchema>;

export const ModelOutputSchema = z.unknown().meta({
  description: 'JSON shaped by the schema’s structure',
  anyOf: [...MODEL_OUTPUT_JSON_SCHEMA.anyOf, { type: 'null' }],
});
