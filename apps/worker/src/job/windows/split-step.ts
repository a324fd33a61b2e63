import type { SourcePreparer } from '@xt/sources';
import type { ExtractionRow } from '../lifecycle.ts';
import { planWindows } from './plan.ts';

/** How a long document is split: its pages, and how many a window holds. */
export interface WindowSplit {
  pagesTotal: number;
  splitPages: number;
}

type SplitRow = Pick<ExtractionRow, 'sourceType' | 'file' | 'fileRef' | 'model' | 'priority'>;

/**
 * Whether the extraction is worked as page windows (docs/scaling.md#one-large-document): an
 * uploaded `pdf` with more than `splitPages` pages. Its pages are counted without reading any.
 * Anything else (another kind, a URL source, batch priority, whose calls go to the provider's
 * batch interface in rounds) takes the one-job path: undefined.
 */
export async function splitStep(
  sources: Pick<SourcePreparer, 'uploadPageCount'>,
  row: SplitRow,
  splitPages: number,
  signal: AbortSignal,
): Promise<WindowSplit | undefined> {
  if (!row.file || row.priority === 'batch' || row.sourceType !== 'pdf') return undefined;
  const pagesTotal = await sources.uploadPageCount(
    row.sourceType,
    { ref: row.fileRef, contentType: row.file.contentType, sha256: row.file.sha256 },
    { model: row.model, signal },
  );
  if (pagesTotal === undefined || planWindows(pagesTotal, splitPages).length === 0)
    return undefined;
  return { pagesTotal, splitPages };
}
