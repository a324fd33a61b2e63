import { formatTimestamp } from '@xt/contract';
import type { WebhookEndpointRow } from '@xt/db';

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
