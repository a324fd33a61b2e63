import { formatTimestamp } from '@xt/contract';
import type { WebhookAttemptRow, WebhookEndpointRow } from '@xt/db';

/** An endpoint as every route shows it; the secret only where the caller just made one. */
export function serializeEndpoint(row: WebhookEndpointRow, options: { withSecret?: boolean } = {}) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description ?? null,
    enabled: row.enabled,
    createdAt: formatTimestamp(row.createdAt),
    ...(options.withSecret ? { secret: row.secret } : {}),
  };
}

/** One delivery attempt, as `GET /webhooks/{id}/deliveries` lists it. */
export function serializeAttempt(row: WebhookAttemptRow) {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type,
    attempt: row.attempt,
    status: row.status,
    responseStatus: row.responseStatus,
    error: row.error,
    createdAt: formatTimestamp(row.createdAt),
  };
}
