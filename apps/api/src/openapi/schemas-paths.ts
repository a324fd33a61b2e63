import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EmptyData, pageOf } from '../http/response-schemas.ts';
import { IdempotencyKeySchema } from '../idempotency/header.ts';
import { schemaFields } from '../schemas/body.ts';
import { SchemaRecordSchema, StructureSchema } from '../schemas/response.ts';
import { BODY_ERRORS, errors, idPath, json, listQuery, ok, resourceHeaders } from './common.ts';

const fullBody = schemaFields.extend({ structure: StructureSchema });
const created = resourceHeaders.extend({
  Location: z.string().meta({ description: '/v1/schemas/{id}' }),
  'Idempotent-Replayed': z.literal('true').optional().meta({ description: 'a repeated request' }),
});

export const schemaPaths: ZodOpenApiPathsObject = {
  '/schemas': {
    post: {
      tags: ['Schemas'],
      summary: 'Create a schema',
      requestParams: { header: z.object({ 'Idempotency-Key': IdempotencyKeySchema.optional() }) },
      requestBody: { required: true, content: json(fullBody) },
      responses: {
        '201': ok('Created', SchemaRecordSchema, created),
        ...errors(...BODY_ERRORS),
      },
    },
    get: {
      tags: ['Schemas'],
      summary: 'List schemas, newest first; search matches the name',
      requestParams: { query: listQuery },
      responses: {
        '200': ok('A page of schemas', pageOf(SchemaRecordSchema)),
        ...errors(422),
      },
    },
  },
  '/schemas/{id}': {
    get: {
      tags: ['Schemas'],
      summary: 'Get a schema',
      requestParams: { path: idPath },
      responses: { '200': ok('The schema', SchemaRecordSchema), ...errors() },
    },
    put: {
      tags: ['Schemas'],
      summary: 'Replace a schema',
      requestParams: { path: idPath },
      requestBody: { required: true, content: json(fullBody) },
      responses: { '200': ok('Updated', SchemaRecordSchema), ...errors(...BODY_ERRORS) },
    },
    patch: {
      tags: ['Schemas'],
      summary: 'Change some of name, description, structure',
      requestParams: { path: idPath },
      requestBody: { required: true, content: json(fullBody.partial()) },
      responses: { '200': ok('Updated', SchemaRecordSchema), ...errors(...BODY_ERRORS) },
    },
    delete: {
      tags: ['Schemas'],
      summary: 'Delete a schema; extractions keep their snapshot',
      requestParams: { path: idPath },
      responses: { '200': ok('Deleted', EmptyData), ...errors() },
    },
  },
};
