import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ListRecordSchema, MetadataSchema, SingleRecordSchema } from '@xt/contract';
import { EmptyData, pageOf } from '../http/response-schemas.ts';
import { IdempotencyKeySchema } from '../idempotency/header.ts';
import { extractionFields } from '../extractions/body.ts';
import { MAX_WAIT_SECONDS } from '../extractions/prefer.ts';
import { ExtractionAcceptedSchema, ExtractionCompletedSchema } from '../extractions/response.ts';
import {
  BODY_ERRORS,
  errors,
  extractionListQuery,
  idPath,
  ok,
  resourceHeaders,
  retryAfter,
} from './common.ts';

const source = z.string().meta({
  description:
    'for `text` the text itself; otherwise the http(s) URL of the content, or for `pdf` and `image` a base64 `data:` URL (docs/uploads.md)',
});
const metadataText = z.string().meta({
  description: 'the metadata object as a JSON string (docs/api.md#metadata)',
});
const file = z.file().meta({
  description:
    'an uploaded file instead of a `source` field, for `pdf`, `image` and `text` (plain text, Markdown, CSV, JSON or HTML)',
});

const citationsDescription =
  'locate each output value in the source: records add `citations` (docs/citations.md); default false';
const citationsJson = z.boolean().default(false).meta({ description: citationsDescription });
const citationsText = z.enum(['true', 'false']).default('false').meta({
  description: citationsDescription,
});

// parseMetadata takes null (and, in forms, an empty value) as no metadata.
const jsonForm = extractionFields.extend({
  source,
  metadata: MetadataSchema.nullable().optional(),
  citations: citationsJson,
});
const urlencodedForm = extractionFields.extend({
  source,
  metadata: metadataText.optional(),
  citations: citationsText,
});
const multipartForm = extractionFields.extend({
  source: z.union([source, file]),
  metadata: metadataText.optional(),
  citations: citationsText,
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
      summary: 'List extractions, newest first; search matches the schema’s name at creation',
      requestParams: { query: extractionListQuery },
      responses: {
        '200': ok('A page of extractions', pageOf(ListRecordSchema)),
        ...errors(422),
      },
    },
  },
  '/extractions/{id}': {
    get: {
      tags: ['Extractions'],
      summary: 'Get an extraction',
      requestParams: { path: idPath },
      responses: { '200': ok('The extraction', SingleRecordSchema), ...errors() },
    },
    delete: {
      tags: ['Extractions'],
      summary: 'Delete an extraction; a running one finishes without a result or a charge',
      requestParams: { path: idPath },
      responses: { '200': ok('Deleted', EmptyData), ...errors() },
    },
  },
};
