import { count, eq } from 'drizzle-orm';
import { countActiveKeys } from '@xt/accounts';
import { schemas, type Db } from '@xt/db';
import { countEndpoints } from '@xt/webhooks';
import { HttpError } from '../errors/errors.ts';

/**
 * What one account may hold at once (docs/security.md#fair-use), each an operator setting
 * (MAX_KEYS_PER_ACCOUNT, MAX_WEBHOOKS_PER_ACCOUNT, MAX_SCHEMAS_PER_ACCOUNT, and
 * MAX_ACTIVE_EXTRACTIONS_PER_ACCOUNT, checked by the create itself in packages/extractions).
 * Past one, a create answers 429 `TOO_MANY_ACTIVE` with Retry-After instead of growing the
 * account's share of the service without end (keys each with their own rate limit, endpoints
 * each receiving every event, a backlog that delays everyone).
 */
export function tooManyActive(message: string, retryAfterSeconds: number): HttpError {
  return new HttpError(429, 'TOO_MANY_ACTIVE', message, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/** A connection or a transaction: counts run inside the create's transaction when it has one. */
type Reader = Pick<Db, 'select'>;

async function countSchemas(db: Reader, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(schemas)
    .where(eq(schemas.accountId, accountId));
  return row?.n ?? 0;
}

/**
 * Refuses a create that would take the account past `limit` of a kind it holds. A count before
 * the insert, not a lock: concurrent creates may overshoot by the few in flight, which a bound
 * meant against abuse can allow.
 */
async function checkHeld(held: Promise<number>, limit: number, what: string): Promise<void> {
  if ((await held) >= limit)
    throw tooManyActive(
      `This account already has ${limit} ${what}, the most allowed; remove one first.`,
      60,
    );
}

// Keys and endpoints are counted by the packages that own them; schemas are the API's own.
export const checkKeys = (db: Reader, accountId: string, limit: number) =>
  checkHeld(countActiveKeys(db, accountId), limit, 'active API keys');

export const checkWebhooks = (db: Reader, accountId: string, limit: number) =>
  checkHeld(countEndpoints(db, accountId), limit, 'webhook endpoints');

export const checkSchemas = (db: Reader, accountId: string, limit: number) =>
  checkHeld(countSchemas(db, accountId), limit, 'schemas');
