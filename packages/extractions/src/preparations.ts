import { and, eq, gt, sql } from 'drizzle-orm';
import { preparedSources, type Db } from '@xt/db';

/**
 * The stored preparations of sources (docs/reuse.md#preparations), `prepared_sources`: what a
 * job read from a file, kept under a key the worker makes from the account, the content and how
 * it was read. The worker decides the key and the bounds; only these functions touch the table.
 */
interface PreparationKey {
  accountId: string;
  key: Buffer;
}

const olderThan = (retentionMs: number) => sql`now() - ${`${retentionMs} milliseconds`}::interval`;

/** The stored body under `key`, unless it is older than `retentionMs`. */
export async function readPreparation(
  db: Db,
  at: PreparationKey,
  retentionMs: number,
): Promise<string | undefined> {
  const [found] = await db
    .select({ body: preparedSources.body })
    .from(preparedSources)
    .where(
      and(
        eq(preparedSources.accountId, at.accountId),
        eq(preparedSources.key, at.key),
        gt(preparedSources.createdAt, olderThan(retentionMs)),
      ),
    );
  return found?.body;
}

/**
 * Stores `body` under `key` for the extraction whose job read it (an entry already there is
 * kept), then deletes the account's oldest entries past `maxAccountBytes`.
 */
export async function storePreparation(
  db: Db,
  at: PreparationKey & { extractionId: string; body: string },
  maxAccountBytes: number,
): Promise<void> {
  await db
    .insert(preparedSources)
    .values({
      accountId: at.accountId,
      key: at.key,
      extractionId: at.extractionId,
      body: at.body,
      size: at.body.length,
    })
    .onConflictDoNothing();
  await trimAccount(db, at.accountId, maxAccountBytes);
}

/** Deletes the account's oldest preparations past its bound in bytes. */
async function trimAccount(db: Db, accountId: string, maxBytes: number): Promise<void> {
  const p = preparedSources;
  await db.execute(sql`
    delete from ${p} where ${p.accountId} = ${accountId} and ${p.key} in (
      select key from (
        select key, sum(size) over (order by created_at desc, key) as kept
        from ${p} where ${p.accountId} = ${accountId}
      ) newest where kept > ${maxBytes})`);
}

/** Deletes preparations past the retention period; the upload sweep runs it (docs/uploads.md). */
export async function removeExpiredPreparations(db: Db, retentionMs: number): Promise<number> {
  const gone = await db
    .delete(preparedSources)
    .where(sql`${preparedSources.createdAt} < ${olderThan(retentionMs)}`)
    .returning({ key: preparedSources.key });
  return gone.length;
}
