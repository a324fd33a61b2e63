import { Readable } from 'node:stream';
import type { Job, Queue } from 'bullmq';
import type { BlobStore } from '@xt/blob-store';
import type { Db } from '@xt/db';
import {
  listWindows,
  processingRow,
  recordWindow,
  recordWindowPdfs,
  storedWindows,
  windowPdf,
  windowSource,
} from '@xt/extractions';
import {
  WINDOW_JOB,
  windowJobOptions,
  type ExtractionJobPolicy,
  type WindowJobPayload,
} from '@xt/queue';
import type { PageWindow } from './plan.ts';

/** A page window's own PDF, cut from its document by the extraction's job. */
export interface CutWindow {
  window: PageWindow;
  pdf: Uint8Array;
}

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
   * Keeps each window's own PDF, cut from the document, for its window to read (a window kept
   * before keeps its first); the number kept now.
   */
  keepPdfs(id: string, pdfs: CutWindow[], notesPages: boolean): Promise<number>;
  /** A window's own PDF, when the extraction's job cut one for it. */
  pdf(id: string, windowIndex: number): ReturnType<typeof windowPdf>;
  /** The converted PDF the windows of a document split before windows had their own read. */
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
    async keepPdfs(id, pdfs, notesPages) {
      const stored = [];
      // One at a time: each is dropped once stored.
      for (const { window, pdf } of pdfs) {
        const { ref } = await blobs.put(db, Readable.from([Buffer.from(pdf)]));
        stored.push({ ...window, windowIndex: window.index, ref, notesPages });
      }
      const left = await recordWindowPdfs(db, id, stored);
      // Not referenced: removed now (or by the orphan sweep, should this fail).
      if (left.length > 0) await blobs.delete(db, left).catch(() => undefined);
      return stored.length - left.length;
    },
    pdf: (id, windowIndex) => windowPdf(db, id, windowIndex),
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
