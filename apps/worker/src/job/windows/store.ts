import { Readable } from 'node:stream';
import type { Job, Queue } from 'bullmq';
import type { BlobStore } from '@xt/blob-store';
import type { Db } from '@xt/db';
import {
  listWindows,
  processingRow,
  recordWindow,
  recordWindowSource,
  storedWindows,
  windowSource,
} from '@xt/extractions';
import {
  WINDOW_JOB,
  windowJobOptions,
  type ExtractionJobPolicy,
  type WindowJobPayload,
} from '@xt/queue';

/**
 * The page windows' storage and jobs (docs/scaling.md#one-large-document), bound to this
 * worker's connections: the steps take it as a parameter, so each can be tested without servers.
 */
export interface WindowStore {
  /** The extraction's row while it is `processing`, else what became of it. */
  row(id: string): ReturnType<typeof processingRow>;
  /** Stores a window's answer once; false when nothing was written. */
  record(result: Parameters<typeof recordWindow>[1]): Promise<boolean>;
  list(id: string): ReturnType<typeof listWindows>;
  stored(id: string): ReturnType<typeof storedWindows>;
  /**
   * Keeps the PDF a long document was converted to, once, for its windows to read; false when
   * it was not kept (kept before, or the extraction is no longer processing).
   */
  keepSource(id: string, pdf: Buffer, notesPages: boolean): Promise<boolean>;
  /** The converted PDF the windows of a document read. */
  source(id: string): ReturnType<typeof windowSource>;
  /** Adds the windows' jobs as children of the extraction's job (a window added twice is one). */
  enqueue(parent: Job, windows: WindowJobPayload[]): Promise<void>;
}

export function windowStore(
  db: Db,
  queue: Queue,
  blobs: BlobStore,
  policy: Omit<ExtractionJobPolicy, 'priority'>,
): WindowStore {
  return {
    async keepSource(id, pdf, notesPages) {
      const { ref } = await blobs.put(db, Readable.from([pdf]));
      const kept = await recordWindowSource(db, id, { ref, notesPages });
      // Not referenced: removed now (or by the orphan sweep, should this fail).
      if (!kept) await blobs.delete(db, [ref]).catch(() => undefined);
      return kept;
    },
    source: (id) => windowSource(db, id),
    row: (id) => processingRow(db, id),
    record: (result) => recordWindow(db, result),
    list: (id) => listWindows(db, id),
    stored: (id) => storedWindows(db, id),
    async enqueue(parent, windows) {
      if (!parent.id) throw new Error('a window needs its parent job id');
      const ref = { id: parent.id, queue: parent.queueQualifiedName };
      // The extraction's own fair-scheduling rank (docs/security.md#fair-scheduling).
      const priority = parent.opts.priority;
      await queue.addBulk(
        windows.map((data) => ({
          name: WINDOW_JOB,
          data,
          opts: windowJobOptions(ref, data, { ...policy, ...(priority ? { priority } : {}) }),
        })),
      );
    },
  };
}
