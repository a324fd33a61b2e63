import { and, eq, inArray, sql } from 'drizzle-orm';
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
    const [locked] = await tx
      .select({ id: extractions.id })
      .from(extractions)
      .where(and(eq(extractions.accountId, accountId), eq(extractions.id, id)))
      .for('update');
    // A split bundle's children (docs/split.md) go with it: their rows would by cascade, but
    // not their bytes or jobs, so they are deleted here as the parent is. A split inserting its
    // children meanwhile waits for the lock above (their foreign key locks the parent), so
    // either it committed first and they are found here, or it finds no parent and writes none.
    const children = locked
      ? await tx
          .select({ id: extractions.id })
          .from(extractions)
          .where(and(eq(extractions.parentId, id), eq(extractions.accountId, accountId)))
          .for('update')
      : [];
    const ids = [...children.map((c) => c.id), id];
    const owned = sql`exists (select 1 from ${extractions} where ${extractions.id} = ${extractionWindowSources.extractionId} and ${extractions.accountId} = ${accountId})`;
    // The PDF a long document was converted to for its windows (docs/scaling.md); the row
    // itself would go with the extraction, its bytes would not.
    const converted = await tx
      .delete(extractionWindowSources)
      .where(and(inArray(extractionWindowSources.extractionId, ids), owned))
      .returning({ ref: extractionWindowSources.ref });
    // Each window's own PDF, the same way.
    const cut = await tx
      .delete(extractionWindowPdfs)
      .where(
        and(
          inArray(extractionWindowPdfs.extractionId, ids),
          sql`exists (select 1 from ${extractions} where ${extractions.id} = ${extractionWindowPdfs.extractionId} and ${extractions.accountId} = ${accountId})`,
        ),
      )
      .returning({ ref: extractionWindowPdfs.ref });
    const rows = await tx
      .delete(extractions)
      .where(and(eq(extractions.accountId, accountId), inArray(extractions.id, ids)))
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
  if (!deleted.rows.some((r) => r.id === id)) throw new ExtractionNotFound();
  for (const row of deleted.rows) await removeJob(deps.queue, row.id, log);
}

/**
 * A deleted extraction's job, unless a worker holds it: that worker finds no row and stops.
 * A long document's page windows not yet taken go now; those being worked find no row before
 * their next model call and stop (docs/scaling.md#one-large-document).
 */
async function removeJob(queue: Queue, id: string, log: Logger): Promise<void> {
  try {
    const job = await queue.getJob(id);
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
