/*
 * The wire types of webhook endpoints and their deliveries (docs/webhooks.md); the event's
 * body, which carries an extraction's record, stays in types.ts.
 */

export type WebhookEventType = 'extraction.completed' | 'extraction.failed' | 'extraction.reviewed';
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  createdAt: string;
}

/** Only `POST /webhooks` and `rotate-secret` show the secret; store it then. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

export interface WebhookEndpointInput {
  url: string;
  events: WebhookEventType[];
  description?: string | null;
}

export interface WebhookEndpointPatch {
  url?: string;
  events?: WebhookEventType[];
  description?: string | null;
  enabled?: boolean;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  type: WebhookEventType;
  attempt: number;
  status: WebhookDeliveryStatus;
  responseStatus: number | null;
  error: string | null;
  createdAt: string;
}
