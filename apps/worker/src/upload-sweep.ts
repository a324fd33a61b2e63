import { inArray, sql } from 'drizzle-orm';
import type { BlobStore } from '@xt/blob-store';
import { extractions, isDatabaseUnavailable, type Db } from '@xt/db';
import { startPeriodic, type Logger, type Periodic } from '@xt/runtime';
import { removeExpiredPreparations, removeExpiredWindows, windowRefs } from '@xt/extractions';

/** The blob references of a `page_images` value (page → ref). */
export function previewRefs(pageImages: unknown): string[] {
  if (pageImages === null || typeof pageImages !== 'object') return [];
  return Object.values(pageImages).filter((v): v is string => typeof v === 'string');
}

/** Rows per transaction: short transactions, and a bounded list of references per delete. */
const BATCH = 200;

export interface UploadSweepOptions {
  /** Bytes of an extraction that finished longer ago than this are removed. */
  retentionMs: number;
  /**
   * Stored bytes no extraction references are removed once older than this. It covers an
   * upload still in flight: a store that writes outside the caller's transaction (an object
   * store) holds the bytes before the row that references them commits.
   */
  orphanGraceMs: number;
}

export interface UploadSweepResult {
  /** Extractions whose bytes were removed for being past retention. */
  expired: number;
  /** Stored files no extraction referenced. */
  orphans: number;
  /** Preparations of sources past retention (docs/reuse.md#preparations). */
  preparations: number;
  /** Page windows of long documents past retention (docs/scaling.md#one-large-document). */
  windows: number;
}

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
 * Removes stored files that no extraction references and that are older than `graceMs`: the
 * bytes of extractions removed without their files (an account deleted with its extractions),
 * or of an upload whose row never committed in a store that writes outside the transaction.
 * Deletes are idempotent, so workers sweeping at the same time at worst repeat one.
 */
export async function removeOrphanUploads(
  db: Db,
  store: BlobStore,
  graceMs: number,
): Promise<number> {
  const before = new Date(Date.now() - graceMs);
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const refs = await store.listCreatedBefore(before, { limit: BATCH, after });
    if (refs.length === 0) return total;
    after = refs[refs.length - 1];
    const referenced = await db
      .select({ ref: extractions.fileRef })
      .from(extractions)
      .where(inArray(extractions.fileRef, refs));
    // Page previews are referenced from page_images, by value.
    const previews = await db.execute<{ ref: string }>(sql`
      select p.value as ref from ${extractions}, json_each_text(${extractions.pageImages}) p
      where ${extractions.pageImages} is not null and ${inArray(sql`p.value`, refs)}`);
    // And from a long document's page windows (docs/scaling.md).
    const windowPreviews = await windowRefs(db, refs);
    const kept = new Set([
      ...referenced.map((r) => r.ref),
      ...previews.rows.map((r) => r.ref),
      ...windowPreviews,
    ]);
    const orphans = refs.filter((ref) => !kept.has(ref));
    // Bytes listed here cannot gain a row later: in PostgreSQL they become visible only with
    // the row that references them, and a store writing outside the transaction is covered by
    // the grace period (the row commits long before it ends).
    await store.delete(db, orphans);
    total += orphans.length;
    if (refs.length < BATCH) return total;
  }
}

export async function sweepUploads(
  db: Db,
  store: BlobStore,
  options: UploadSweepOptions,
): Promise<UploadSweepResult> {
  const expired = await removeExpiredUploads(db, store, options.retentionMs);
  // Before the orphans: previews only an expired window referenced go in the same sweep.
  const expiredWindows = await removeExpiredWindows(db, options.retentionMs);
  // The PDF a long document was converted to for its windows goes with them.
  if (expiredWindows.refs.length > 0) await store.delete(db, expiredWindows.refs);
  const windows = expiredWindows.windows;
  const orphans = await removeOrphanUploads(db, store, options.orphanGraceMs);
  // What was read from sources is a copy of them, kept no longer than their bytes.
  const preparations = await removeExpiredPreparations(db, options.retentionMs);
  return { expired, orphans, preparations, windows };
}

/**
 * Runs the sweep every `intervalMs` in this worker process until stopped. Every worker runs it;
 * the sweeps are safe side by side (see above). A failed sweep is retried at the next interval,
 * and a database outage is logged once, not every time.
 */
export function startUploadSweep(
  deps: { db: Db; store: BlobStore; logger: Logger },
  options: UploadSweepOptions,
  intervalMs: number,
): Periodic {
  return startPeriodic(
    async () => {
      const result = await sweepUploads(deps.db, deps.store, options);
      if (result.expired > 0 || result.orphans > 0 || result.preparations > 0 || result.windows > 0)
        deps.logger.info(result, 'uploaded files removed');
    },
    {
      name: 'upload-sweep',
      intervalMs,
      logger: deps.logger,
      // The first sweep soon after start, spread out so workers started together do not align.
      firstDelayMs: Math.min(intervalMs, 1_000 + Math.random() * 4_000),
      isOutage: isDatabaseUnavailable,
      outageMessage: 'cannot reach PostgreSQL; retrying every interval',
    },
  );
}
