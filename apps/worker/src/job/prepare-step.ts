import type { PreparedSource } from '@xt/contract';
import type { PreparationStore, SourcePreparer } from '@xt/sources';
import type { ExtractionRow, JobLifecycle } from './lifecycle.ts';
import { bundledPages } from './split/bundled-pages.ts';

/** A preparation at least this long is followed by a look whether the row was deleted meanwhile. */
export const RECHECK_AFTER_PREPARING_MS = 50;

type SourceRow = Pick<
  ExtractionRow,
  'sourceType' | 'source' | 'file' | 'fileRef' | 'model' | 'citationsRequested'
> &
  Partial<Pick<ExtractionRow, 'pages'>>;

/**
 * The row's source, read the way it came: an upload from the blob store, anything else from
 * `source` (typed text, or a URL fetched or rendered as its kind says). The kind's own reading
 * is @xt/sources' (docs/sources.md). A file prepared before for the account with the same
 * options is taken from `preparations` instead (docs/reuse.md#preparations).
 */
export function prepareStep(
  sources: Pick<SourcePreparer, 'prepare' | 'prepareUpload'>,
  row: SourceRow,
  signal: AbortSignal,
  preparations?: PreparationStore,
  /** `images: false`: the model takes no images, so scans go as OCR text (docs/sources.md). */
  { images = true }: { images?: boolean } = {},
): Promise<PreparedSource> {
  // A document of a split bundle: its own PDF holds the bundle's pages `from` to `to`, read
  // with the bundle's numbers so its citations name them (docs/split.md). Its `total` is its own
  // pages, not the bundle's: a document may send as many pages as images as any document,
  // rather than its pages' share of the bundle's (which is what a page window's total gives).
  const pages = bundledPages(row);
  const opts = {
    model: row.model,
    signal,
    citations: row.citationsRequested,
    ...(preparations && !pages ? { preparations } : {}),
    ...(images ? {} : { images }),
    ...(pages
      ? { window: { first: pages.from, last: pages.to, total: pages.to - pages.from + 1 } }
      : {}),
  };
  return row.file
    ? sources.prepareUpload(
        row.sourceType,
        { ref: row.fileRef, contentType: row.file.contentType, sha256: row.file.sha256 },
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

/**
 * Records what a fetched source turned out to be (its format, and for `auto` its kind) when
 * the row does not say so yet, and returns the row as it now stands: the later steps and the
 * metrics then name the kind it was read as.
 */
export async function recordFound(
  lifecycle: Pick<JobLifecycle, 'recordSourceFound'>,
  row: ExtractionRow,
  source: Pick<PreparedSource, 'found'>,
): Promise<ExtractionRow> {
  const found = source.found;
  if (!found || (found.type === row.sourceType && found.format === row.format)) return row;
  await lifecycle.recordSourceFound(row.id, found);
  return { ...row, sourceType: found.type, format: found.format };
}
