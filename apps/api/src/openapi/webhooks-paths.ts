import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { pageOf } from '../http/envelope/response-schemas.ts';
import { endpointFields } from '../webhooks/body.ts';
import { WEBHOOK_BODY_LIMIT } from '../webhooks/routes.ts';
import {
  DeliveryAttemptSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '../webhooks/response.ts';
import { errors, idPath, listQuery, ok, pageHeaders, resourceHeaders } from './common.ts';
import { crudPaths } from './crud-paths.ts';

const created = resourceHeaders.extend({
  Location: z.string().meta({ description: '/v1/webhooks/{id}' }),
});

const crud = crudPaths({
  noun: 'Webhook',
  record: WebhookEndpointSchema,
  bodySize: `At most ${WEBHOOK_BODY_LIMIT} (413 past it).`,
  create: {
    summary: 'Register an endpoint; its secret is shown this once',
    body: endpointFields,
    created: WebhookEndpointWithSecretSchema,
    headers: created,
  },
  list: {
    summary: 'List endpoints, newest first; search matches the URL',
    ok: 'A page of endpoints',
  },
  get: { summary: 'Get an endpoint', ok: 'The endpoint' },
  update: { summary: 'Change url, events, description or enabled', body: endpointFields.partial() },
  delete: { summary: 'Delete an endpoint' },
});

export const webhookPaths: ZodOpenApiPathsObject = {
  '/webhooks': crud.collection,
  '/webhooks/{id}': crud.item,
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
