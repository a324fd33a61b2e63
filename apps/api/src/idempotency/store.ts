import { and, eq, sql } from 'drizzle-orm';
import { HttpError } from '../http/errors/errors.ts';
import { idempotencyKeys, type Db } from '@xt/db';
import { IDEMPOTENCY_HEADER } from './header.ts';

/** A transaction handle, as drizzle passes it to `db.transaction`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type ResourceType = 'extraction' | 'schema';

/** A client's key and the fingerprint of the request that carried it. */
export interface IdempotencyRequest {
  key: string;
  fingerprint: Buffer;
}

export type KeyClaim = { kind: 'new' } | { kind: 'replay'; resourceId: string };

export function keyReused(): HttpError {
  return new HttpError(422, 'IDEMPOTENCY_KEY_REUSED', 'The request is invalid.', {
    fields: [
      {
        field: IDEMPOTENCY_HEADER,
        message: `this ${IDEMPOTENCY_HEADER} was already used for a different request; use a new key for a new request`,
      },
    ],
  });
}

/**
 * Remembers which resource each Idempotency-Key created (docs/idempotency.md). `claim` runs in
 * the transaction that writes the resource row, so the key and the resource commit together or
 * not at all.
 */
export class IdempotencyKeys {
  constructor(private readonly ttlHours: number) {}

  /**
   * Inserts the key for `resourceId`, or finds the resource an earlier request with the key
   * created. A concurrent request holding the same key makes this statement wait on the unique
   * index until that request commits (then this one replays) or rolls back (then this one
   * creates). A key past its expiry that the sweep has not removed yet is taken over.
   */
  async claim(
    tx: Tx,
    accountId: string,
    request: IdempotencyRequest,
    resourceType: ResourceType,
    resourceId: string,
  ): Promise<KeyClaim> {
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({
        accountId,
        key: request.key,
        fingerprint: request.fingerprint,
        resourceType,
        resourceId,
        expiresAt: sql`now() + make_interval(hours => ${this.ttlHours})`,
      })
      .onConflictDoUpdate({
        target: [idempotencyKeys.accountId, idempotencyKeys.key],
        set: {
          fingerprint: sql`excluded.fingerprint`,
          resourceType: sql`excluded.resource_type`,
          resourceId: sql`excluded.resource_id`,
          createdAt: sql`now()`,
          expiresAt: sql`excluded.expires_at`,
        },
        setWhere: sql`${idempotencyKeys.expiresAt} <= now()`,
      })
      .returning({ resourceId: idempotencyKeys.resourceId });
    if (inserted.length > 0) return { kind: 'new' };

    const [existing] = await tx
      .select({
        fingerprint: idempotencyKeys.fingerprint,
        resourceId: idempotencyKeys.resourceId,
      })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, request.key)));
    // The conflicting row is locked by the statement above, so it cannot vanish in between.
    if (!existing) throw new Error('idempotency key vanished while locked');
    if (!existing.fingerprint.equals(request.fingerprint)) throw keyReused();
    return { kind: 'replay', resourceId: existing.resourceId };
  }
}
