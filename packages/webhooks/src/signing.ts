import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` plus the
 * base64 of random bytes, and each request carries `webhook-signature: v1,<base64 HMAC-SHA256>`
 * over `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the decoded bytes. Any Standard
 * Webhooks library verifies it as is.
 */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a webhook secret');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one delivery attempt; the timestamp is the moment of sending. */
export function webhookHeaders(
  secret: string,
  id: string,
  body: string,
  now: Date = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}
