import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  ListRecordSchema,
  MetadataSchema,
  PrioritySchema,
  MAX_SPLIT_CLASSES,
  MAX_SPLIT_CLASS_NAME_CHARS,
  MAX_SPLIT_DESCRIPTION_CHARS,
  SingleRecordSchema,
  SOURCE_KINDS,
  SPLIT_OTHER_CLASS,
  typesTaking,
} from '@xt/contract';
import { EmptyData, pageOf } from '../http/envelope/response-schemas.ts';
import { IdempotencyKeySchema } from '../idempotency/header.ts';
import { extractionFields } from '../extractions/body.ts';
import { MAX_CACHE_MAX_AGE } from '../extractions/cache-field.ts';
import { MAX_WAIT_SECONDS } from '../extractions/prefer.ts';
import { MAX_URL_LENGTH } from '@xt/fetcher';
import { ExtractionAcceptedSchema, ExtractionCompletedSchema } from '../extractions/response.ts';
import {
  BODY_ERRORS,
  errors,
  extractionListQuery,
  idPath,
  ok,
  pageHeaders,
  resourceHeaders,
  retryAfter,
} from './common.ts';

/** The kinds that take a source in one way, as the registry says, for descriptions. */
const named = (input: Parameters<typeof typesTaking>[0]) =>
  typesTaking(input)
    .map((t) => `\`${t}\``)
    .join(', ');
const uploadFormats = typesTaking('upload')
  .map((t) => `\`${t}\` (${SOURCE_KINDS[t].formats.join(', ')})`)
  .join('; ');

// The text and upload caps are settings; the document states their defaults and names them.
const source = z
  .string()
  .min(1)
  .meta({
    description: `for ${named('inline')} the text itself, not blank, at most MAX_TEXT_CHARS characters (default 1,000,000); for ${named('url')} the absolute http(s) URL of the content, without credentials, at most ${MAX_URL_LENGTH} characters, whose host must be public; or for ${named('dataUrl')} a base64 \`data:\` URL of at most MAX_UPLOAD_BYTES decoded (default 50 MiB) (docs/uploads.md)`,
  });
const metadataText = z.string().meta({
  description: 'the metadata object as a JSON string (docs/api.md#metadata)',
});
const file = z.file().meta({
  description: `an uploaded file instead of a \`source\` field, for ${uploadFormats}; recognised by its content, not its name; at most MAX_UPLOAD_BYTES (default 50 MiB, 413 past it); one file part only (docs/sources.md)`,
});

const citationsDescription =
  'locate each output value in the source: records add `citations` (docs/citations.md); default false';
const citationsJson = z.boolean().default(false).meta({ description: citationsDescription });
const citationsText = z.enum(['true', 'false']).default('false').meta({
  description: citationsDescription,
});

const reuseDescription =
  'an earlier answer of this account with the same source content, schema structure, instruction, model and citations is reused, completing at once with 0 tokens, uncharged (docs/reuse.md)';
const cacheJson = z
  .union([
    z.literal(false),
    z.object({
      maxAge: z
        .int()
        .min(0)
        .max(MAX_CACHE_MAX_AGE)
        .meta({ description: 'the oldest answer to reuse, in seconds' }),
    }),
  ])
  .optional()
  .meta({
    description: `${reuseDescription} when younger than \`maxAge\` (default CACHE_MAX_AGE_SECONDS, 604800); \`false\` does the work afresh`,
  });
const cacheText = z
  .enum(['true', 'false'])
  .optional()
  .meta({
    description: `\`false\` does the work afresh; otherwise ${reuseDescription}`,
  });
const cacheMaxAgeText = z.string().regex(/^\d+$/).optional().meta({
  description:
    'the oldest answer to reuse, in seconds (default CACHE_MAX_AGE_SECONDS, 604800); not with cache=false',
});

const priority = PrioritySchema.optional();

// A split names a schema per class, so the top-level schema_id is then absent (docs/split.md).
const schemaId = z.uuid().optional().meta({
  description: 'the schema to extract with; required, except with `split`, where it must be absent',
});
const splitDescription = `cut the source (a bundle of documents of type \`pdf\`, \`document\`, \`image\` or \`auto\`) into its documents, classify each and extract it with its class’s schema as a child extraction (docs/split.md); not with \`schema_id\` nor priority \`batch\``;
const splitJson = z
  .object({
    classes: z
      .array(
        z.object({
          name: z
            .string()
            .min(1)
            .max(MAX_SPLIT_CLASS_NAME_CHARS)
            .regex(/^[\p{L}\p{N}_\- ]+$/u)
            .meta({
              description: `letters, digits, _, - and spaces; unique ignoring case; not \`${SPLIT_OTHER_CLASS}\``,
            }),
          description: z
            .string()
            .max(MAX_SPLIT_DESCRIPTION_CHARS)
            .optional()
            .meta({ description: 'what documents of this class are, for the classification' }),
          schema_id: z.uuid().optional().meta({
            description:
              'the schema to extract its documents with; without one they are only classified',
          }),
        }),
      )
      .min(1)
      .max(MAX_SPLIT_CLASSES),
    other: z
      .boolean()
      .default(true)
      .meta({
        description: `pages of no class become documents of class \`${SPLIT_OTHER_CLASS}\`, never extracted; false: they are given the likeliest class`,
      }),
  })
  .optional()
  .meta({ description: splitDescription });
const splitText = z
  .string()
  .optional()
  .meta({ description: `the split object as a JSON string: ${splitDescription}` });

// parseMetadata takes null (and, in forms, an empty value) as no metadata.
const jsonForm = extractionFields.extend({
  schema_id: schemaId,
  split: splitJson,
  source,
  metadata: MetadataSchema.nullable().optional(),
  citations: citationsJson,
  cache: cacheJson,
  priority,
});
const urlencodedForm = extractionFields.extend({
  schema_id: schemaId,
  split: splitText,
  source,
  metadata: metadataText.optional(),
  citations: citationsText,
  cache: cacheText,
  cache_max_age: cacheMaxAgeText,
  priority,
});
const multipartForm = extractionFields.extend({
  schema_id: schemaId,
  split: splitText,
  source: z.union([source, file]),
  metadata: metadataText.optional(),
  citations: citationsText,
  cache: cacheText,
  cache_max_age: cacheMaxAgeText,
  priority,
});

const answered = resourceHeaders.extend({
  'Preference-Applied': z
    .string()
    .optional()
    .meta({ description: 'the honoured preference: `respond-async` or `wait=<seconds>`' }),
  'Idempotent-Replayed': z.literal('true').optional().meta({ description: 'a repeated request' }),
});

export const extractionPaths: ZodOpenApiPathsObject = {
  '/extractions': {
    post: {
      tags: ['Extractions'],
      operationId: 'createExtraction',
      summary: 'Create an extraction, and wait for it as asked',
      description: `Waits for the result up to EXTRACTION_WAIT_SECONDS (default 55). \`Prefer: respond-async\` answers 202 at once; \`Prefer: wait=<seconds>\` waits that long (at most ${MAX_WAIT_SECONDS}). A failure while waiting answers the status of its cause, with \`extractionId\` (docs/api.md#waiting-and-prefer).`,
      requestParams: {
        header: z.object({
          'Idempotency-Key': IdempotencyKeySchema.optional(),
          Prefer: z
            .string()
            .optional()
            .meta({
              description: `RFC 7240: \`respond-async\` or \`wait=<seconds>\` (0–${MAX_WAIT_SECONDS})`,
              examples: ['respond-async', 'wait=10'],
            }),
        }),
      },
      requestBody: {
        required: true,
        description:
          'The same fields in any of the three encodings. JSON and urlencoded bodies may hold up to 4 bytes per MAX_TEXT_CHARS character or a base64 MAX_UPLOAD_BYTES, whichever is more, plus 64 KiB; a multipart body at most 20 fields and 30 parts (413 past any of these).',
        content: {
          'application/json': { schema: jsonForm },
          'multipart/form-data': { schema: multipartForm },
          'application/x-www-form-urlencoded': { schema: urlencodedForm },
        },
      },
      responses: {
        '200': ok('Completed while the request waited', ExtractionCompletedSchema, answered),
        '202': ok(
          'Accepted, not finished yet: poll `Location`',
          ExtractionAcceptedSchema,
          answered.extend({
            Location: z.string().meta({ description: '/v1/extractions/{id}' }),
            'Retry-After': retryAfter,
          }),
        ),
        ...errors(...BODY_ERRORS, 502),
      },
    },
    get: {
      tags: ['Extractions'],
      operationId: 'listExtractions',
      summary: 'List extractions, newest first; search matches the schema’s name at creation',
      requestParams: {
        query: extractionListQuery.extend({
          parent_id: z.uuid().optional().meta({
            description: 'only the documents of this split bundle (docs/split.md)',
          }),
        }),
      },
      responses: {
        '200': ok('A page of extractions', pageOf(ListRecordSchema), pageHeaders),
        ...errors(422),
      },
    },
  },
  '/extractions/{id}': {
    get: {
      tags: ['Extractions'],
      operationId: 'getExtraction',
      summary: 'Get an extraction',
      requestParams: { path: idPath },
      responses: { '200': ok('The extraction', SingleRecordSchema), ...errors() },
    },
    delete: {
      tags: ['Extractions'],
      operationId: 'deleteExtraction',
      summary: 'Delete an extraction; a running one finishes without a result or a charge',
      requestParams: { path: idPath },
      responses: { '200': ok('Deleted', EmptyData), ...errors() },
    },
  },
};
