import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { REVIEW_STATUSES, SingleRecordSchema } from '@xt/contract';
import { pageOf } from '../http/envelope/response-schemas.ts';
import { reviewBody } from '../reviews/body.ts';
import { DatasetCaseSchema } from '../reviews/dataset.ts';
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

const reviewListQuery = listQuery.extend({
  status: z.enum(REVIEW_STATUSES).optional().meta({ description: 'the review’s status' }),
  schema_id: z.uuid().optional(),
});

export const reviewPaths: ZodOpenApiPathsObject = {
  '/reviews': {
    get: {
      tags: ['Reviews'],
      operationId: 'listReviews',
      summary: 'List extractions queued for review, newest first; search matches the schema name',
      requestParams: { query: reviewListQuery },
      responses: {
        '200': ok('A page of queued extractions', pageOf(SingleRecordSchema), pageHeaders),
        ...errors(422),
      },
    },
  },
  '/extractions/{id}/review': {
    post: {
      tags: ['Reviews'],
      operationId: 'reviewExtraction',
      summary: 'Approve (with corrections) or reject an extraction queued for review',
      description:
        'One transaction: a refused review (a pointer the schema lacks, a value of the wrong type, an extraction not queued: 422) writes nothing; of two at once one wins and the other answers 409. `result` stays as read; `reviewedResult` is the corrected output (null when rejected). Fires `extraction.reviewed`.',
      requestParams: { path: idPath },
      requestBody: { required: true, content: json(reviewBody) },
      responses: {
        '200': ok('The reviewed extraction', SingleRecordSchema),
        ...errors(...BODY_ERRORS, 409),
      },
    },
  },
  '/schemas/{id}/dataset': {
    get: {
      tags: ['Reviews'],
      operationId: 'exportDataset',
      summary:
        'The schema’s approved extractions as evaluation cases: source, reviewed output, output as read',
      requestParams: { path: idPath, query: listQuery },
      responses: {
        '200': ok('A page of cases', pageOf(DatasetCaseSchema), pageHeaders),
        ...errors(422),
      },
    },
  },
  '/extractions/{id}/file': {
    get: {
      tags: ['Extractions'],
      operationId: 'getExtractionFile',
      summary: 'The uploaded source file’s bytes, while kept (404 once removed after retention)',
      requestParams: { path: idPath },
      responses: {
        '200': {
          description: 'The file as uploaded',
          headers: resourceHeaders.extend({
            'Content-Disposition': z
              .string()
              .meta({ description: "`attachment; filename*=UTF-8''<the upload's name>`" }),
          }),
          content: { 'application/octet-stream': { schema: z.file() } },
        },
        ...errors(),
      },
    },
  },
};
