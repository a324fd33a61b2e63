import { and, eq, sql } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { BlobStore } from '@xt/blob-store';
import { extractions, extractionWindowPdfs, extractionWindowSources, type Db } from '@xt/db';
import { errorSummary } from '@xt/runtime';
import { ExtractionNotFound } from './errors.ts';

/**
 * Deletes the row first: a job that is already running then finds nothing to update and writes
 * no result and no charge. A job still waiting is removed from the queue, with its page windows. An uploaded file and
 * the page previews go in the same transaction as the row.
 */
export async function deleteExtraction(
  deps: { db: Db; store: BlobStore; queue: Queue },
  accountId: string,
  id: string,
  log: Logger,
): Promise<void> {
  const { db, store } = deps;
  const deleted = await db.transaction(async (tx) => {
    // The row locked first: a job recording windows' PDFs meanwhile holds its key until it
    // commits, so its rows are either there for the deletes below, which take their bytes, or
    // refused for want of the row once this commits (and the job removes their bytes itself).
    // Deleted without the lock, they went with the row by cascade and their bytes to the sweep.
    await tx
      .select({ id: extractions.id })
      .from(extractions)
      .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)))
      .for('update');
    // The PDF a long document was converted to for its windows (docs/scaling.md); the row
    // itself would go with the extraction, its bytes would not.
    const converted = await tx
      .delete(extractionWindowSources)
      .where(
        and(
          eq(extractionWindowSources.extractionId, id),
          sql`exists (select 1 from ${extractions} where ${extractions.id} = ${id} and ${extractions.accountId} = ${accountId})`,
        ),
      )
      .returning({ ref: extractionWindowSources.ref });
    // Each window's own PDF, the same way.
    const cut = await tx
      .delete(extractionWindowPdfs)
      .where(
        and(
          eq(extractionWindowPdfs.extractionId, id),
          sql`exists (select 1 from ${extractions} where ${extractions.id} = ${id} and ${extractions.accountId} = ${accountId})`,
        ),
      )
      .returning({ ref: extractionWindowPdfs.ref });
    const rows = await tx
      .delete(extractions)
      .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)))
      .returning({
        id: extractions.id,
        fileRef: extractions.fileRef,
        pageImages: extractions.pageImages,
      });
    const refs = [...storedRefs(rows), ...[...converted, ...cut].map((c) => c.ref)];
    if (store.transactional) await store.delete(tx, refs);
    return { rows, refs };
  });
  // A store outside the transaction loses the bytes only once the row is gone; should that
  // fail, the orphan sweep removes them.
  const { refs } = deleted;
  if (!store.transactional && refs.length > 0)
    await store
      .delete(db, refs)
      .catch((err: unknown) =>
        log.warn({ error: errorSummary(err), extractionId: id }, 'stored upload left to the sweep'),
      );
  if (deleted.rows.length === 0) throw new ExtractionNotFound();
  try {
    const job = await deps.queue.getJob(id);
    // A long document's page windows not yet taken go now; those being worked find no row
    // before their next model call and stop (docs/scaling.md#one-large-document).
    if (job && (await job.isWaitingChildren())) await job.removeUnprocessedChildren();
    if (job && !(await job.isActive())) await job.remove();
  } catch (err) {
    // Locked by a worker that just picked it up: that worker will find no row and stop.
    log.debug({ err, extractionId: id }, 'job not removed');
  }
}

/** The upload and the page previews drawn from it (docs/citations.md#review-view). */
function storedRefs(
  rows: { fileRef: string | null; pageImages: Record<string, string> | null }[],
): string[] {
  return rows.flatMap((r) => [
    ...(r.fileRef ? [r.fileRef] : []),
    ...Object.values(r.pageImages ?? {}),
  ]);
}
