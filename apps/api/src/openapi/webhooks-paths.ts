import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EmptyData, pageOf } from '../http/response-schemas.ts';
import { endpointFields } from '../webhooks/body.ts';
import { WEBHOOK_BODY_LIMIT } from '../webhooks/routes.ts';
import {
  DeliveryAttemptSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '../webhooks/response.ts';
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

const BODY_SIZE = `At most ${WEBHOOK_BODY_LIMIT} (413 past it).`;
const created = resourceHeaders.extend({
  Location: z.string().meta({ description: '/v1/webhooks/{id}' }),
});

export const webhookPaths: ZodOpenApiPathsObject = {
  '/webhooks': {
    post: {
      tags: ['Webhooks'],
      operationId: 'createWebhook',
      summary: 'Register an endpoint; its secret is shown this once',
      requestBody: { required: true, description: BODY_SIZE, content: json(endpointFields) },
      responses: {
        '201': ok('Created', WebhookEndpointWithSecretSchema, created),
        ...errors(...BODY_ERRORS),
      },
    },
    get: {
      tags: ['Webhooks'],
      operationId: 'listWebhooks',
      summary: 'List endpoints, newest first; search matches the URL',
      requestParams: { query: listQuery },
      responses: {
        '200': ok('A page of endpoints', pageOf(WebhookEndpointSchema), pageHeaders),
        ...errors(422),
      },
    },
  },
  '/webhooks/{id}': {
    get: {
      tags: ['Webhooks'],
      operationId: 'getWebhook',
      summary: 'Get an endpoint',
      requestParams: { path: idPath },
      responses: { '200': ok('The endpoint', WebhookEndpointSchema), ...errors() },
    },
    patch: {
      tags: ['Webhooks'],
      operationId: 'updateWebhook',
      summary: 'Change url, events, description or enabled',
      requestParams: { path: idPath },
      requestBody: {
        required: true,
        description: BODY_SIZE,
        content: json(endpointFields.partial()),
      },
      responses: { '200': ok('Updated', WebhookEndpointSchema), ...errors(...BODY_ERRORS) },
    },
    delete: {
      tags: ['Webhooks'],
      operationId: 'deleteWebhook',
      summary: 'Delete an endpoint',
      requestParams: { path: idPath },
      responses: { '200': ok('Deleted', EmptyData), ...errors() },
    },
  },
  '/webhooks/{id}/rotate-secret': {
    post: {
      tags: ['Webhooks'],
      operationId: 'rotateWebhookSecret',
      summary: 'Replace the signing secret; the new one is shown this once',
      requestParams: { path: idPath },
      responses: { '200': ok('Rotated', WebhookEndpointWithSecretSchema), ...errors() },
    },
  },
  '/webhooks/{id}/deliveries': {
    get: {
      tags: ['Webhooks'],
      operationId: 'listWebhookDeliveries',
      summary: 'Every delivery attempt to this endpoint, newest first',
      requestParams: { path: idPath, query: listQuery },
      responses: {
        '200': ok('A page of delivery attempts', pageOf(DeliveryAttemptSchema), pageHeaders),
        ...errors(422),
      },
    },
  },
};
