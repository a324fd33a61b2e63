import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.ts';
import type { WebhookEvent } from './types.ts';

/** Headers as Node's `req.headers`, a fetch `Headers`, or a plain record. */
export type WebhookHeaders =
  Headers | Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface VerifyWebhookOptions {
  /** The endpoint's secret, `whsec_` + base64, as `POST /webhooks` showed it. */
  secret: string;
  headers: WebhookHeaders;
  /** The raw body exactly as received: verifying re-serialised JSON fails. */
  body: string | Uint8Array;
  /** How far `webhook-timestamp` may be from now, against replays. Default 300 s. */
  toleranceSeconds?: number;
  /** Current time in ms, for tests. */
  now?: number;
}

const SECRET_PREFIX = 'whsec_';

/**
 * Checks a Standard Webhooks request (docs/webhooks.md#headers-and-signature) and returns its
 * parsed event; throws WebhookVerificationError otherwise. The header may list several
 * space-separated signatures (during a secret rotation); one matching `v1` is enough.
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const id = header(options.headers, 'webhook-id');
  const timestamp = header(options.headers, 'webhook-timestamp');
  const signatures = header(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      'missing webhook-id, webhook-timestamp or webhook-signature',
    );
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('malformed webhook-timestamp');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  }
  if (!options.secret.startsWith(SECRET_PREFIX)) {
    throw new WebhookVerificationError('the secret does not start with whsec_');
  }
  const key = Buffer.from(options.secret.slice(SECRET_PREFIX.length), 'base64');
  const body =
    typeof options.body === 'string'
      ? Buffer.from(options.body, 'utf8')
      : Buffer.from(options.body);
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp}.`, 'utf8')
    .update(body)
    .digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, mac] = entry.split(',', 2);
    if (version !== 'v1' || !mac) return false;
    const given = Buffer.from(mac, 'base64');
    // timingSafeEqual throws on a length mismatch; a length says nothing about the secret.
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches');
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const value =
    record[name] ??
    Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1] ??
    undefined;
  return Array.isArray(value) ? value[0] : value;
}
