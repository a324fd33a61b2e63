import { inArray, sql } from 'drizzle-orm';
import type { BlobStore } from '@xt/blob-store';
import { extractions, type Db } from '@xt/db';
import { windowRefs } from './windows.ts';

/*
 * An upload's bytes past retention (docs/uploads.md): what the worker's upload sweep asks of
 * the extraction rows. The sweep lists the store and deletes; the rows are only touched here.
 */

/** The blob references of a `page_images` value (page → ref). */
function previewRefs(pageImages: unknown): string[] {
  if (pageImages === null || typeof pageImages !== 'object') return [];
  return Object.values(pageImages).filter((v): v is string => typeof v === 'string');
}

/** Rows per transaction: short transactions, and a bounded list of references per delete. */
const BATCH = 200;

/**
 * Removes the bytes of final extractions older than the retention period, keeping the row and
 * its `file` description, which records when they went (`file.removedAt`), and ending the
 * reuse of an upload's answer with them. Batches are claimed
 * with SKIP LOCKED, so workers sweeping at the same time split the work instead of queueing on
 * each other, and a row an API request is deleting is left to that request.
 */
export async function removeExpiredUploads(
  db: Db,
  store: BlobStore,
  retentionMs: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { claimed, refs } = await db.transaction(async (tx) => {
      // The references come from the claimed rows: RETURNING would give the new values, null.
      // Page previews (docs/citations.md#review-view) are pictures of the source and go with it.
      const rows = await tx.execute<{ file_ref: string | null; page_images: unknown }>(sql`
        with due as (
          select id, file_ref, page_images from extractions
          where (file_ref is not null or page_images is not null)
            and finished_at < now() - ${`${retentionMs} milliseconds`}::interval
            and status in ('completed', 'failed')
          order by finished_at
          limit ${BATCH}
          for update skip locked
        )
        update extractions e
        set file_ref = null,
            page_images = null,
            -- An upload the service has forgotten is not reused either (docs/reuse.md).
            reuse_key = case when due.file_ref is not null then null else e.reuse_key end,
            -- Only bytes that were stored are removed: a reused upload's were never stored, and
            -- its previews are copies of its original's (docs/reuse.md#evidence).
            file = case when due.file_ref is null then e.file
              else e.file || jsonb_build_object('removedAt',
                to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"')) end
        from due
        where e.id = due.id
        returning due.file_ref, due.page_images`);
      const due = rows.rows.flatMap((r) => [
        ...(r.file_ref ? [r.file_ref] : []),
        ...previewRefs(r.page_images),
      ]);
      if (store.transactional) await store.delete(tx, due);
      return { claimed: rows.rows.length, refs: due };
    });
    // Outside the transaction only once the rows no longer point at them; should this fail,
    // the bytes are orphans, which the orphan sweep removes.
    if (!store.transactional) await store.delete(db, refs);
    total += claimed;
    if (claimed < BATCH) return total;
  }
}

/**
 * Which of `refs` an extraction still uses: as its uploaded file, as a page preview (referenced
 * from `page_images`, by value), or through a long document's page windows (docs/scaling.md).
 */
export async function referencedUploads(db: Db, refs: string[]): Promise<Set<string>> {
  const referenced = await db
    .select({ ref: extractions.fileRef })
    .from(extractions)
    .where(inArray(extractions.fileRef, refs));
  const previews = await db.execute<{ ref: string }>(sql`
    select p.value as ref from ${extractions}, json_each_text(${extractions.pageImages}) p
    where ${extractions.pageImages} is not null and ${inArray(sql`p.value`, refs)}`);
  const windowPreviews = await windowRefs(db, refs);
  return new Set([
    ...referenced.flatMap((r) => (r.ref === null ? [] : [r.ref])),
    ...previews.rows.map((r) => r.ref),
    ...windowPreviews,
  ]);
}
