import type { Queue } from 'bullmq';
import type { BlobStore } from '@xt/blob-store';
import type { Db } from '@xt/db';
import {
  enqueueExtraction,
  priorityOfUnfinished,
  recordSplit,
  resumeSplitParent,
  splitParent,
  unfinishedChildren,
} from '@xt/extractions';
import type { ExtractionJobPolicy } from '@xt/queue';

/**
 * A split bundle's storage and its children's jobs (docs/split.md), bound to this worker's
 * connections: the steps take it as a parameter, so each can be tested without servers.
 */
export interface BundleStore {
  /** Writes the children and the parent's documents once; false when the parent is not processing. */
  record(
    ...args: Parameters<typeof recordSplit> extends [unknown, ...infer R] ? R : never
  ): Promise<boolean>;
  parent(id: string): ReturnType<typeof splitParent>;
  resume(id: string): Promise<boolean>;
  unfinished(parentId: string): ReturnType<typeof unfinishedChildren>;
  /**
   * Gives each child its job (a child that has one keeps it: the id is the job id), ranked as
   * its account's next extraction (docs/security.md#fair-scheduling).
   */
  enqueue(children: { id: string; accountId: string; requestId: string | null }[]): Promise<void>;
}

export function bundleStore(
  db: Db,
  queue: Queue,
  blobs: BlobStore,
  policy: Omit<ExtractionJobPolicy, 'priority'>,
): BundleStore {
  return {
    record: (...args) => recordSplit({ db, store: blobs }, ...args),
    parent: (id) => splitParent(db, id),
    resume: (id) => resumeSplitParent(db, id),
    unfinished: (parentId) => unfinishedChildren(db, parentId),
    async enqueue(children) {
      const [first] = children;
      if (!first) return;
      const priority = await priorityOfUnfinished(db, first.accountId, 'standard');
      for (const child of children)
        await enqueueExtraction(
          queue,
          { extractionId: child.id, ...(child.requestId ? { requestId: child.requestId } : {}) },
          { ...policy, priority },
        );
    },
  };
}
