import type { BlobStore } from '@xt/blob-store';
import { isDatabaseUnavailable, type Db } from '@xt/db';
import { startPeriodic, type Logger, type Periodic } from '@xt/runtime';
import {
  referencedUploads,
  removeExpiredPreparations,
  removeExpiredUploads,
  removeExpiredWindows,
} from '@xt/extractions';

/** Stored files listed per round of the orphan sweep. */
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
    // Its file, its page previews, or a long document's page windows (docs/scaling.md).
    const kept = await referencedUploads(db, refs);
    const orphans = refs.filter((ref) => !kept.has(ref));
    // Bytes listed here cannot gain a row later: in PostgreSQL they become visible only with
    // the row that references them, and a store writing outside the transaction is covered by
    // the grace period (the row commits long before it ends).
    await store.delete(db, orphans);
    total += orphans.length;
    if (refs.length < BATCH) return total;
  }
}

/**
 * One sweep: the bytes of final extractions past retention, their windows, the orphans and the
 * preparations. The rows are packages/extractions' to read and change (`removeExpiredUploads`,
 * `referencedUploads`, …); this file walks the store and deletes the bytes they name.
 */
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
