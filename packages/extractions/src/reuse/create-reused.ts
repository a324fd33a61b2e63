import { sql } from 'drizzle-orm';
import type { BlobStore } from '@xt/blob-store';
import { extractions, isNotNullViolation, type Db } from '@xt/db';
import { recordFinalEvent } from '@xt/webhooks';
import { randomUUID } from 'node:crypto';
import {
  requestColumns,
  type KeyClaim,
  type NewExtraction,
  type Transaction,
  type Written,
} from '../create.ts';
import { UnknownSchema } from '../errors.ts';
import { copyEvidence, lockOriginalAnswer, reusedColumns } from './answer.ts';

/**
 * A create whose answer exists already (docs/reuse.md): the extraction is written `completed`
 * at once with the original's answer, uncharged and with no tokens, and no job. Its webhook
 * event is recorded in the same transaction, as for any completion. An uploaded file's bytes are
 * not stored: nothing will read them. The original's page previews and cells are copied, the
 * copy's own (docs/reuse.md#evidence). Null when the original is gone by now (deleted since the
 * look-up): the caller then creates the extraction as usual.
 */
export async function writeReusedExtraction(
  { db, store }: { db: Db; store: BlobStore },
  accountId: string,
  input: NewExtraction,
  originalId: string,
  opts: {
    requestId: string;
    claimKey?: ((tx: Transaction, id: string) => Promise<KeyClaim>) | undefined;
  },
): Promise<Written | null> {
  const id = randomUUID();
  return db.transaction(async (tx) => {
    const original = await lockOriginalAnswer(tx, accountId, originalId);
    if (!original) return null;
    if (opts.claimKey) {
      const claim = await opts.claimKey(tx, id);
      if (claim.kind === 'replay') return { created: false, id: claim.resourceId };
    }
    const pageImages = await copyEvidence(store, tx, original.pageImages);
    const [row] = await tx
      .insert(extractions)
      .values({
        ...requestColumns(accountId, id, input, opts.requestId),
        ...reusedColumns(originalId, original),
        pageImages,
        startedAt: sql`now()`,
        finishedAt: sql`now()`,
      })
      .returning()
      .catch((err: unknown) => {
        if (isNotNullViolation(err, 'schema_name')) throw new UnknownSchema();
        throw err;
      });
    if (!row) throw new Error('insert returned no row');
    await recordFinalEvent(tx, row);
    return { created: true, row, priority: 0 };
  });
}
