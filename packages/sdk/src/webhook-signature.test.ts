/**
 * Signature checks on hand-made messages; tests/clients/sdk.test.ts verifies a delivery
 * signed by the service itself.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from './errors.ts';
import { verifyWebhook } from './webhook-signature.ts';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ id: 'evt_1', type: 'extraction.completed', data: {}, metadata: {} });
const now = 1_800_000_000_000;
const timestamp = String(now / 1000);

function sign(key: string, id: string, ts: string, payload: string): string {
  const raw = Buffer.from(key.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', raw).update(`${id}.${ts}.${payload}`).digest('base64')}`;
}

const headers = (signature: string) => ({
  'webhook-id': 'evt_1',
  'webhook-timestamp': timestamp,
  'webhook-signature': signature,
});

describe('verifyWebhook', () => {
  it('accepts a good signature among several, from a record, Headers or bytes', () => {
    const good = sign(secret, 'evt_1', timestamp, body);
    const other = sign(`whsec_${randomBytes(32).toString('base64')}`, 'evt_1', timestamp, body);
    const event = verifyWebhook({ secret, headers: headers(`${other} ${good}`), body, now });
    expect(event.id).toBe('evt_1');
    const fetchHeaders = new Headers(headers(good));
    const bytes = new TextEncoder().encode(body);
    expect(verifyWebhook({ secret, headers: fetchHeaders, body: bytes, now }).type).toBe(
      'extraction.completed',
    );
  });

  it('refuses a changed body, id, another secret, a stale time or missing headers', () => {
    const good = sign(secret, 'evt_1', timestamp, body);
    const cases = [
      { secret, headers: headers(good), body: body.replace('evt_1', 'evt_2'), now },
      { secret, headers: { ...headers(good), 'webhook-id': 'evt_2' }, body, now },
      { secret: `whsec_${randomBytes(32).toString('base64')}`, headers: headers(good), body, now },
      { secret, headers: headers(good), body, now: now + 301_000 },
      { secret, headers: headers(good.replace('v1,', 'v2,')), body, now },
      { secret, headers: { 'webhook-id': 'evt_1' }, body, now },
    ];
    for (const options of cases) {
      expect(() => verifyWebhook(options)).toThrow(WebhookVerificationError);
    }
    expect(verifyWebhook({ secret, headers: headers(good), body, now: now + 299_000 }).id).toBe(
      'evt_1',
    );
  });
});
