import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '@xt/db';
import { readPreparation, storePreparation } from '@xt/extractions';
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
 * bound is 0. Keyed by the account, the content, and everything that decides how it is read;
 * the rows themselves are packages/extractions' (`readPreparation`, `storePreparation`).
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
        const found = await readPreparation(
          db,
          { accountId: row.accountId, key: keyOf(content) },
          settings.retentionMs,
        );
        if (found !== undefined)
          logger.info({ type: content.type }, 'source read from an earlier preparation');
        return found;
      },
      async write(content, serialized) {
        if (serialized.length > settings.maxEntryBytes) return;
        await storePreparation(
          db,
          { accountId: row.accountId, key: keyOf(content), extractionId: row.id, body: serialized },
          settings.maxAccountBytes,
        );
      },
    };
  };
}
