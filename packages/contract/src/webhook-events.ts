/** The events a webhook endpoint can subscribe to: an extraction reaching a final state, or reviewed. */
export const WEBHOOK_EVENT_TYPES = [
  'extraction.completed',
  'extraction.failed',
  'extraction.reviewed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a delivery attempt came to: still to be retried, answered 2xx, or given up on. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
