import type { PreparedSource } from '@xt/contract';
import type { PreparationStore, SourcePreparer } from '@xt/sources';
import type { ExtractionRow } from '../lifecycle.ts';
import { planWindows } from './plan.ts';

/** How a long document is split: its pages, and how many a window holds. */
export interface WindowSplit {
  pagesTotal: number;
  splitPages: number;
}

type SplitRow = Pick<
  ExtractionRow,
  'id' | 'sourceType' | 'file' | 'fileRef' | 'model' | 'priority' | 'citationsRequested'
>;

export type SplitOutcome =
  /** Worked as page windows. */
  | { next: 'windows'; split: WindowSplit }
  /**
   * Short enough for one job, and already read to count its pages (a PDF's bytes, a document
   * converted): `prepare` reads the whole of it from what was read.
   */
  | { next: 'whole'; prepare: () => Promise<PreparedSource> }
  /** The one-job path, from the start. */
  | { next: 'one-job' };

/**
 * Whether the extraction is worked as page windows (docs/scaling.md#one-large-document): an
 * uploaded `pdf` or `document` with more than `splitPages` pages. A PDF's pages are counted
 * without reading any. A document is converted to PDF here, once: when it is long, the PDF is
 * kept for the windows (`keepSource`), which read their pages from it; when it is not, the one
 * job reads the PDF it was converted to. Anything else (another kind, a URL source, batch
 * priority, whose calls go to the provider's batch interface in rounds) takes the one-job path.
 */
export async function splitStep(
  sources: Pick<SourcePreparer, 'countUploadPages' | 'convertUpload' | 'prepareConverted'>,
  keepSource: (id: string, pdf: Buffer, notesPages: boolean) => Promise<boolean>,
  row: SplitRow,
  splitPages: number,
  { signal, preparations }: { signal: AbortSignal; preparations?: PreparationStore | undefined },
): Promise<SplitOutcome> {
  if (!row.file || row.priority === 'batch') return { next: 'one-job' };
  const file = { ref: row.fileRef, contentType: row.file.contentType, sha256: row.file.sha256 };
  // A document read before is not converted again (docs/reuse.md#preparations).
  const opts = { model: row.model, signal, citations: row.citationsRequested, preparations };
  if (row.sourceType === 'document') {
    const converted = await sources.convertUpload(row.sourceType, file, opts);
    if (!converted) return { next: 'one-job' };
    if (planWindows(converted.pageCount, splitPages).length === 0)
      return { next: 'whole', prepare: () => sources.prepareConverted(converted, opts) };
    // A second run of the job (a crash after converting) keeps the first PDF: the same pages.
    await keepSource(row.id, converted.pdf, converted.notesPages);
    return { next: 'windows', split: { pagesTotal: converted.pageCount, splitPages } };
  }
  if (row.sourceType !== 'pdf') return { next: 'one-job' };
  const counted = await sources.countUploadPages(row.sourceType, file, opts);
  if (!counted) return { next: 'one-job' };
  const pagesTotal = counted.pageCount;
  if (planWindows(pagesTotal, splitPages).length === 0)
    return { next: 'whole', prepare: counted.prepare };
  return { next: 'windows', split: { pagesTotal, splitPages } };
}
