import type { PreparedSource } from '@xt/contract';
import type { SourcePreparer } from '@xt/sources';
import type { ExtractionRow, JobLifecycle } from './lifecycle.ts';

/** A preparation at least this long is followed by a look whether the row was deleted meanwhile. */
export const RECHECK_AFTER_PREPARING_MS = 50;

type SourceRow = Pick<
  ExtractionRow,
  'sourceType' | 'source' | 'file' | 'fileRef' | 'model' | 'citationsRequested'
>;

/**
 * The row's source, read the way it came: an upload from the blob store, anything else from
 * `source` (typed text, or a URL fetched or rendered as its kind says). The kind's own reading
 * is @xt/sources' (docs/sources.md).
 */
export function prepareStep(
  sources: Pick<SourcePreparer, 'prepare' | 'prepareUpload'>,
  row: SourceRow,
  signal: AbortSignal,
): Promise<PreparedSource> {
  const opts = { model: row.model, signal, citations: row.citationsRequested };
  return row.file
    ? sources.prepareUpload(
        row.sourceType,
        { ref: row.fileRef, contentType: row.file.contentType },
        opts,
      )
    : sources.prepare(row.sourceType, row.source, opts);
}

/**
 * Whether the extraction was deleted while its source was prepared, so that no model tokens are
 * spent on it. Not asked after a preparation of moments (typed text): a deletion in that window
 * costs one model call, whose result the final conditional update discards, and asking cost a
 * statement per extraction (docs/performance.md).
 */
export async function deletedWhilePreparing(
  lifecycle: Pick<JobLifecycle, 'exists'>,
  extractionId: string,
  preparedMs: number,
): Promise<boolean> {
  if (preparedMs < RECHECK_AFTER_PREPARING_MS) return false;
  return !(await lifecycle.exists(extractionId));
}
