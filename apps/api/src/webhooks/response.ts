/**
 * Webhook endpoints and delivery attempts as the API shows them, as zod schemas: the serializers
 * are typed from them and the OpenAPI document is generated from them.
 */
import { z } from 'zod';
import { TimestampSchema, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '@xt/contract';

export const WebhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1),
    description: z.string().nullable(),
    enabled: z.boolean(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'WebhookEndpoint' });

/** Only where the caller just made a secret: on create and on rotate-secret. */
export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z
    .string()
    .regex(/^whsec_/)
    .meta({ description: 'shown once; signs deliveries (Standard Webhooks)' }),
}).meta({ id: 'WebhookEndpointWithSecret' });

export const DeliveryAttemptSchema = z
  .object({
    id: z.uuid(),
    eventId: z.uuid(),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    attempt: z.int().min(1),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    responseStatus: z
      .int()
      .nullable()
      .meta({ description: 'the endpoint’s HTTP status; null when no answer came' }),
    error: z.string().nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;
export type WebhookEndpointWithSecret = z.output<typeof WebhookEndpointWithSecretSchema>;
export type DeliveryAttempt = z.output<typeof DeliveryAttemptSchema>;
