import { and, asc, count, desc, eq, isNull, like, or, sql } from 'drizzle-orm';
import { isUuid } from '@xt/contract';
import { accounts, apiKeys, preparedPerDb, type Db } from '@xt/db';
import { displayPrefix, generateKey, hashKey, looksLikeKey } from './key-material.ts';

export type KeyScope = 'read' | 'write';

export interface CreatedKey {
  id: string;
  key: string;
  accountId: string;
  accountName: string;
  scope: KeyScope;
  displayPrefix: string;
}

/** Who a request acts for: an API key, or a dashboard user signed in with a session. */
export interface Principal {
  /** The API key used; null for a dashboard session. */
  keyId: string | null;
  /** The dashboard user; absent for an API key. */
  userId?: string;
  accountId: string;
  scope: KeyScope;
}

/** Creates the account when it does not exist yet, then a key for it. The key is shown once. */
export async function createKey(
  db: Db,
  input: { accountName: string; scope: KeyScope; label?: string },
): Promise<CreatedKey> {
  const name = input.accountName.trim();
  if (!name) throw new Error('account name must not be empty');
  return db.transaction(async (tx) => {
    await tx.insert(accounts).values({ name }).onConflictDoNothing({ target: accounts.name });
    const [account] = await tx.select().from(accounts).where(eq(accounts.name, name));
    if (!account) throw new Error(`account ${name} could not be created`);
    const key = generateKey();
    const [row] = await tx
      .insert(apiKeys)
      .values({
        accountId: account.id,
        hash: hashKey(key),
        displayPrefix: displayPrefix(key),
        scope: input.scope,
        label: input.label ?? null,
      })
      .returning({ id: apiKeys.id });
    if (!row) throw new Error('key could not be stored');
    return {
      id: row.id,
      key,
      accountId: account.id,
      accountName: account.name,
      scope: input.scope,
      displayPrefix: displayPrefix(key),
    };
  });
}

/** A key for an existing account (the dashboard's "create key"). The key is shown once. */
export async function createAccountKey(
  db: Db,
  accountId: string,
  input: { scope: KeyScope; label: string | null },
) {
  const key = generateKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId,
      hash: hashKey(key),
      displayPrefix: displayPrefix(key),
      scope: input.scope,
      label: input.label,
    })
    .returning(ACCOUNT_KEY_COLUMNS);
  if (!row) throw new Error('key could not be stored');
  return { ...row, key };
}

const ACCOUNT_KEY_COLUMNS = {
  id: apiKeys.id,
  displayPrefix: apiKeys.displayPrefix,
  scope: apiKeys.scope,
  label: apiKeys.label,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
};

/** One account's keys, newest first, revoked ones included (people want to see what died). */
export async function listAccountKeys(db: Db, accountId: string) {
  return db
    .select(ACCOUNT_KEY_COLUMNS)
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Revokes one of the account's live keys; false when it has no such live key. */
export async function revokeAccountKey(db: Db, accountId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

export async function listKeys(db: Db) {
  return db
    .select({
      id: apiKeys.id,
      displayPrefix: apiKeys.displayPrefix,
      scope: apiKeys.scope,
      label: apiKeys.label,
      account: accounts.name,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .orderBy(asc(apiKeys.createdAt));
}

/**
 * Revokes by key id or by display prefix. A prefix that matches several live keys is refused
 * rather than revoking more than the operator meant.
 */
export async function revokeKey(
  db: Db,
  idOrPrefix: string,
): Promise<{ id: string; displayPrefix: string }> {
  const match = isUuid(idOrPrefix)
    ? eq(apiKeys.id, idOrPrefix)
    : or(like(apiKeys.displayPrefix, `${idOrPrefix.replace(/[%_\\]/g, '\\$&')}%`));
  const candidates = await db
    .select({ id: apiKeys.id, displayPrefix: apiKeys.displayPrefix })
    .from(apiKeys)
    .where(and(match, isNull(apiKeys.revokedAt)));
  if (candidates.length === 0) throw new Error(`no active key matches ${idOrPrefix}`);
  if (candidates.length > 1)
    throw new Error(
      `${candidates.length} active keys match ${idOrPrefix}; give the key id instead`,
    );
  const [target] = candidates;
  if (!target) throw new Error('unreachable');
  await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(eq(apiKeys.id, target.id));
  return target;
}

/** How stale `last_used_at` may get: writing it on every request would cost a write per read. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** A live key as authentication needs it, with when it was last recorded as used. */
export interface LiveKey {
  principal: Principal;
  lastUsedAt: Date | null;
}

/** The live key a presented bearer credential names; null when unknown, malformed or revoked. */
export async function findLiveKey(db: Db, presented: string): Promise<LiveKey | null> {
  if (!looksLikeKey(presented)) return null;
  const [row] = await liveKeyByHash(db).execute({ hash: hashKey(presented) });
  if (!row) return null;
  return {
    principal: { keyId: row.id, accountId: row.accountId, scope: row.scope },
    lastUsedAt: row.lastUsedAt,
  };
}

/**
 * Records that the key was used, to the minute (for `keys list`): true when it wrote, false
 * when the last record is recent enough.
 */
export async function touchKey(db: Db, live: LiveKey): Promise<boolean> {
  if (live.lastUsedAt && Date.now() - live.lastUsedAt.getTime() <= LAST_USED_RESOLUTION_MS)
    return false;
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(apiKeys.id, live.principal.keyId!));
  return true;
}

/** Resolves a presented bearer credential; null when unknown, malformed or revoked. */
export async function authenticateKey(db: Db, presented: string): Promise<Principal | null> {
  const live = await findLiveKey(db, presented);
  if (!live) return null;
  await touchKey(db, live);
  return live.principal;
}

/** Runs on every API request, so it is built once (see preparedPerDb). */
const liveKeyByHash = preparedPerDb('live_api_key_by_hash', (db, name) =>
  db
    .select({
      id: apiKeys.id,
      accountId: apiKeys.accountId,
      scope: apiKeys.scope,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.hash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare(name),
);

/** The account's keys not revoked, for its bound (MAX_KEYS_PER_ACCOUNT). */
export async function countActiveKeys(db: Pick<Db, 'select'>, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  return row?.n ?? 0;
}

export async function countKeys(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
  return row?.n ?? 0;
}
