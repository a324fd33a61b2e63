import { z } from 'zod';
import { ReviewPolicySchema } from '@xt/contract';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { IdempotencyKeySchema } from '../idempotency/header.ts';
import { schemaFields } from '../schemas/body.ts';
import { SCHEMA_BODY_LIMIT } from '../schemas/routes.ts';
import { SchemaRecordSchema, StructureSchema } from '../schemas/response.ts';
import { MAX_SAMPLES, SAMPLES_FIELD, suggestFields } from '../schemas/suggest/body.ts';
import { ConversionSchema, SuggestionSchema } from '../schemas/suggest/response.ts';
import { CONVERT_BODY_LIMIT } from '../schemas/suggest/routes.ts';
import { BODY_ERRORS, errors, json, ok, resourceHeaders } from './common.ts';
import { crudPaths } from './crud-paths.ts';

const fullBody = schemaFields.extend({
  structure: StructureSchema,
  review: ReviewPolicySchema.nullable().optional().meta({
    description:
      'queue completed extractions for human review (docs/review.md); `fields` must be paths of `structure` (422 naming `review.fields[i]`); null removes it',
  }),
});
const created = resourceHeaders.extend({
  Location: z.string().meta({ description: '/v1/schemas/{id}' }),
  'Idempotent-Replayed': z.literal('true').optional().meta({ description: 'a repeated request' }),
});

const sample = z.file().meta({
  description:
    'a sample document: any file an extraction takes as an upload (recognised by content, as type `auto`), at most MAX_UPLOAD_BYTES (default 50 MiB)',
});
const suggestForm = suggestFields.extend({
  [SAMPLES_FIELD]: z
    .array(sample)
    .min(1)
    .max(MAX_SAMPLES)
    .meta({
      description: `1 to ${MAX_SAMPLES} file parts, each named \`${SAMPLES_FIELD}\`; a file's problem is reported on \`${SAMPLES_FIELD}[i]\` (422)`,
    }),
});
const convertBody = z.object({
  jsonSchema: z.looseObject({}).meta({
    description:
      'a JSON Schema (draft-07 to 2020-12: local $ref/$defs/definitions, allOf, anyOf/oneOf, enum, const, nested objects and arrays)',
  }),
});

// Before `/schemas/{id}`: the route table matches paths in this order.
const suggestPaths: ZodOpenApiPathsObject = {
  '/schemas/suggest': {
    post: {
      tags: ['Schemas'],
      operationId: 'suggestSchema',
      summary: 'Draft a schema from sample files, and run the draft on each',
      description:
        'Two rounds of extractions on the samples, worked by the workers and charged as extractions: one asks each sample which fields it carries, the other runs the merged draft on each sample with citations. Waits up to SUGGEST_WAIT_SECONDS (default 120); past it, or when the model provider is down, 503 with Retry-After (a repeat reuses the calls that finished). Nothing is stored as a schema (docs/api.md#suggest-a-schema).',
      requestBody: {
        required: true,
        content: { 'multipart/form-data': { schema: suggestForm } },
      },
      responses: {
        '200': ok('The draft and its run on each sample', SuggestionSchema),
        ...errors(...BODY_ERRORS, 502),
      },
    },
  },
  '/schemas/convert': {
    post: {
      tags: ['Schemas'],
      operationId: 'convertJsonSchema',
      summary: 'Convert a JSON Schema into a structure, listing what could not be kept',
      description:
        'No model call, no charge, nothing stored. A JSON Schema that is broken (an unknown type, a $ref to nothing) or whose root is not an object or an array of objects is a 422 naming the field (docs/api.md#import-a-json-schema).',
      requestBody: {
        required: true,
        description: `At most ${CONVERT_BODY_LIMIT} (413 past it).`,
        content: json(convertBody),
      },
      responses: {
        '200': ok('The structure and what was left out', ConversionSchema),
        ...errors(...BODY_ERRORS),
      },
    },
  },
};

const crud = crudPaths({
  noun: 'Schema',
  record: SchemaRecordSchema,
  bodySize: `At most ${SCHEMA_BODY_LIMIT} (413 past it).`,
  create: {
    summary: 'Create a schema',
    requestHeaders: z.object({ 'Idempotency-Key': IdempotencyKeySchema.optional() }),
    body: fullBody,
    headers: created,
  },
  list: { summary: 'List schemas, newest first; search matches the name', ok: 'A page of schemas' },
  get: { summary: 'Get a schema', ok: 'The schema' },
  replace: { summary: 'Replace a schema', body: fullBody },
  update: { summary: 'Change some of name, description, structure', body: fullBody.partial() },
  delete: { summary: 'Delete a schema; extractions keep their snapshot' },
});

export const schemaPaths: ZodOpenApiPathsObject = {
  '/schemas': crud.collection,
  ...suggestPaths,
  '/schemas/{id}': crud.item,
};
