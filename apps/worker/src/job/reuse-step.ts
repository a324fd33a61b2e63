import { SOURCE_KINDS, type Citations, type PreparedSource } from '@xt/contract';
import {
  completeFromReuse,
  evidenceToDraw,
  findReusableForExtraction,
  preparedSha256,
  recordDrawnEvidence,
  recordReuseKey,
  reuseKey,
  type ReuseOutcome,
  type ReuseSource,
} from '@xt/extractions';
import type { BlobStore } from '@xt/blob-store';
import type { Db } from '@xt/db';
import type { ExtractionRow } from './lifecycle.ts';

/** What the reuse step reads and writes, bound to the worker's database and settings. */
export interface JobReuse {
  /** @xt/model's pipelineVersion() and CACHE_NAMESPACE: parts of every key. */
  pipelineVersion: string;
  namespace: string;
  find(lookup: {
    accountId: string;
    key: Buffer;
    maxAgeSeconds: number;
    extractionId: string;
  }): Promise<string | undefined>;
  complete(accountId: string, id: string, originalId: string): Promise<ReuseOutcome>;
  recordKey(id: string, key: Buffer): Promise<void>;
  /** A completed copy's citations when it has no evidence to show (reuse-evidence-step.ts). */
  evidenceToDraw(id: string): Promise<Citations | null>;
  recordDrawn(id: string, pageImages: Record<string, string>): Promise<boolean>;
}

export function jobReuse(
  deps: { db: Db; store: BlobStore },
  settings: { pipelineVersion: string; namespace: string },
): JobReuse {
  return {
    ...settings,
    find: (lookup) => findReusableForExtraction(deps.db, lookup),
    complete: (accountId, id, originalId) => completeFromReuse(deps, accountId, id, originalId),
    recordKey: (id, key) => recordReuseKey(deps.db, id, key),
    evidenceToDraw: (id) => evidenceToDraw(deps.db, id),
    recordDrawn: (id, pageImages) => recordDrawnEvidence(deps.db, id, pageImages),
  };
}

type ReuseRow = Pick<
  ExtractionRow,
  | 'id'
  | 'accountId'
  | 'sourceType'
  | 'instruction'
  | 'model'
  | 'citationsRequested'
  | 'file'
  | 'cacheMaxAgeSeconds'
>;

export type ReuseStepOutcome =
  /** no earlier answer to take: go on to the model */
  | { next: 'extract' }
  /** completed from `originalId`'s answer, or found no longer processing */
  | { next: 'done'; outcome: Exclude<ReuseOutcome, 'original-gone'>; originalId: string };

/**
 * Between prepare and extract, for a source whose content was unknown at create (a URL): its
 * reuse key from what was fetched, an earlier answer with it taken when the request allows
 * (docs/reuse.md), and otherwise the key recorded so that this answer can be reused later.
 * A source known at create (typed text, an upload) was looked up there, with its key; such a
 * row is left as it is. A URL's key is computed again on a retry: the content may have changed.
 */
export function reuseStep(
  reuse: JobReuse,
  row: ReuseRow,
  source: PreparedSource,
): Promise<ReuseStepOutcome> {
  return reuseContent(reuse, row, { kind: 'prepared', sha256: preparedSha256(source) });
}

/**
 * `reuseStep` by the content as the key knows it: a URL source worked as page windows is never
 * prepared whole in one place, so it is known by its fetched bytes (`kind: 'fetched'`), looked
 * up and recorded before its windows are cut. Its answer is reused by the same bytes worked as
 * windows again (at any address), not by the one-job key of the same URL.
 */
export async function reuseContent(
  reuse: JobReuse,
  row: ReuseRow,
  content: ReuseSource,
): Promise<ReuseStepOutcome> {
  if (row.file || SOURCE_KINDS[row.sourceType].inputs.inline) return { next: 'extract' };
  const key = reuseKey({
    accountId: row.accountId,
    type: row.sourceType,
    source: content,
    instruction: row.instruction,
    model: row.model,
    citations: row.citationsRequested,
    pipelineVersion: reuse.pipelineVersion,
    namespace: reuse.namespace,
  });
  if (row.cacheMaxAgeSeconds !== null) {
    const originalId = await reuse.find({
      accountId: row.accountId,
      key,
      maxAgeSeconds: row.cacheMaxAgeSeconds,
      extractionId: row.id,
    });
    if (originalId) {
      const outcome = await reuse.complete(row.accountId, row.id, originalId);
      if (outcome !== 'original-gone') return { next: 'done', outcome, originalId };
    }
  }
  await reuse.recordKey(row.id, key);
  return { next: 'extract' };
}
