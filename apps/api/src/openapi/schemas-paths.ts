import { z } from 'zod';
import { ReviewPolicySchema } from '@xt/contract';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EmptyData, pageOf } from '../http/response-schemas.ts';
import { IdempotencyKeySchema } from '../idempotency/header.ts';
import { schemaFields } from '../schemas/body.ts';
import { SCHEMA_BODY_LIMIT } from '../schemas/routes.ts';
import { SchemaRecordSchema, StructureSchema } from '../schemas/response.ts';
import {
  BODY_ERRORS,
  errors,
  idPath,
  json,
  listQuery,
  ok,
  pageHeaders,
  resourceHeaders,
} from './common.ts';

const fullBody = schemaFields.extend({
  structure: StructureSchema,
  review: ReviewPolicySchema.nullable().optional().meta({
    description:
      'queue completed extractions for human review (docs/review.md); `fields` must be paths of `structure` (422 naming `review.fields[i]`); null removes it',
  }),
});
const BODY_SIZE = `At most ${SCHEMA_BODY_LIMIT} (413 past it).`;
const created = resourceHeaders.extend({
  Location: z.string().meta({ description: '/v1/schemas/{id}' }),
  'Idempotent-Replayed': z.literal('true').optional().meta({ description: 'a repeated request' }),
});

export const schemaPaths: ZodOpenApiPathsObject = {
  '/schemas': {
    post: {
      tags: ['Schemas'],
      operationId: 'createSchema',
      summary: 'Create a schema',
      requestParams: { header: z.object({ 'Idempotency-Key': IdempotencyKeySchema.optional() }) },
      requestBody: { required: true, description: BODY_SIZE, content: json(fullBody) },
      responses: {
        '201': ok('Created', SchemaRecordSchema, created),
        ...errors(...BODY_ERRORS),
      },
    },
    get: {
      tags: ['Schemas'],
      operationId: 'listSchemas',
      summary: 'List schemas, newest first; search matches the name',
      requestParams: { query: listQuery },
      responses: {
        '200': ok('A page of schemas', pageOf(SchemaRecordSchema), pageHeaders),
        ...errors(422),
      },
    },
  },
  '/schemas/{id}': {
    get: {
      tags: ['Schemas'],
      operationId: 'getSchema',
      summary: 'Get a schema',
      requestParams: { path: idPath },
      responses: { '200': ok('The schema', SchemaRecordSchema), ...errors() },
    },
    put: {
      tags: ['Schemas'],
      operationId: 'replaceSchema',
      summary: 'Replace a schema',
      requestParams: { path: idPath },
      requestBody: { required: true, description: BODY_SIZE, content: json(fullBody) },
      responses: { '200': ok('Updated', SchemaRecordSchema), ...errors(...BODY_ERRORS) },
    },
    patch: {
      tags: ['Schemas'],
      operationId: 'updateSchema',
      summary: 'Change some of name, description, structure',
      requestParams: { path: idPath },
      requestBody: { required: true, description: BODY_SIZE, content: json(fullBody.partial()) },
      responses: { '200': ok('Updated', SchemaRecordSchema), ...errors(...BODY_ERRORS) },
    },
    delete: {
      tags: ['Schemas'],
      operationId: 'deleteSchema',
      summary: 'Delete a schema; extractions keep their snapshot',
      requestParams: { path: idPath },
      responses: { '200': ok('Deleted', EmptyData), ...errors() },
    },
  },
};
