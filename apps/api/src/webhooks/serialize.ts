import { formatTimestamp, type WebhookEventType } from '@xt/contract';
import type { WebhookAttemptRow, WebhookEndpointRow } from '@xt/db';
import type { DeliveryAttempt, WebhookEndpoint, WebhookEndpointWithSecret } from './response.ts';

/** An endpoint as every route shows it. */
export function serializeEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    // The columns are text; a check constraint keeps them to the event names.
    events: row.events as WebhookEventType[],
    description: row.description ?? null,
    enabled: row.enabled,
    createdAt: formatTimestamp(row.createdAt),
  };
}

/** With the secret: only where the caller just made one (create, rotate-secret). */
export function serializeEndpointWithSecret(row: WebhookEndpointRow): WebhookEndpointWithSecret {
  return { ...serializeEndpoint(row), secret: row.secret };
}

/** One delivery attempt, as `GET /webhooks/{id}/deliveries` lists it. */
export function serializeAttempt(row: WebhookAttemptRow): DeliveryAttempt {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type as WebhookEventType,
    attempt: row.attempt,
    status: row.status,
    responseStatus: row.responseStatus,
    error: row.error,
    createdAt: formatTimestamp(row.createdAt),
  };
}
