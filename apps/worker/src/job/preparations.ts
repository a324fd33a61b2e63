import { createHash } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { preparedSources, type Db } from '@xt/db';
import { SOURCE_READING_VERSION } from '@xt/model/pipeline-version';
import type { ContentId, PreparationStore } from '@xt/sources';
import type { ExtractionRow } from './lifecycle.ts';

export interface PreparationSettings {
  /** Nothing older is read: a preparation is a copy of the source (UPLOAD_RETENTION_HOURS). */
  retentionMs: number;
  /** Larger preparations are not stored (PREP_CACHE_MAX_ENTRY_BYTES). */
  maxEntryBytes: number;
  /** What one account may hold, the oldest going first; 0 stores nothing (PREP_CACHE_ACCOUNT_BYTES). */
  maxAccountBytes: number;
  /** The worker's settings that change how a file is read (PDF_MODE, page and pixel limits). */
  reading: Record<string, unknown>;
}

type PreparationRow = Pick<ExtractionRow, 'id' | 'accountId' | 'model' | 'citationsRequested'>;

/**
 * The store of earlier preparations for one job (docs/reuse.md#preparations), or none when the
 * bound is 0. Keyed by the account, the content, and everything that decides how it is read.
 */
export function jobPreparations(
  db: Db,
  settings: PreparationSettings,
  logger: Logger,
): (row: PreparationRow) => PreparationStore | undefined {
  const reading = JSON.stringify(settings.reading);
  return (row) => {
    if (settings.maxAccountBytes <= 0) return undefined;
    const keyOf = (content: ContentId) =>
      createHash('sha256')
        .update(
          JSON.stringify([
            'xt-prep-1',
            row.accountId,
            content.type,
            content.sha256,
            content.contentType,
            row.model,
            row.citationsRequested,
            SOURCE_READING_VERSION,
            reading,
            // Only a text-only reading adds to the key: the keys stored before it still match.
            ...(content.images === false ? ['images-as-text'] : []),
          ]),
        )
        .digest();
    return {
      async read(content) {
        const [found] = await db
          .select({ body: preparedSources.body })
          .from(preparedSources)
          .where(
            and(
              eq(preparedSources.accountId, row.accountId),
              eq(preparedSources.key, keyOf(content)),
              gt(
                preparedSources.createdAt,
                sql`now() - ${`${settings.retentionMs} milliseconds`}::interval`,
              ),
            ),
          );
        if (found) logger.info({ type: content.type }, 'source read from an earlier preparation');
        return found?.body;
      },
      async write(content, serialized) {
        if (serialized.length > settings.maxEntryBytes) return;
        await db
          .insert(preparedSources)
          .values({
            accountId: row.accountId,
            key: keyOf(content),
            extractionId: row.id,
            body: serialized,
            size: serialized.length,
          })
          .onConflictDoNothing();
        await trimAccount(db, row.accountId, settings.maxAccountBytes);
      },
    };
  };
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
    .where(sql`${preparedSources.createdAt} < now() - ${`${retentionMs} milliseconds`}::interval`)
    .returning({ key: preparedSources.key });
  return gone.length;
}
