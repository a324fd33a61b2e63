import type { PreparedSource } from '@xt/contract';
import type { PreparationStore, SourcePreparer } from '@xt/sources';
import type { ExtractionRow } from '../lifecycle.ts';
import { planWindows } from './plan.ts';
import type { WindowStore } from './store.ts';

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
 * without reading any. A document is converted to PDF here, once. When it is long, each
 * window's pages are cut into a PDF of its own, once, and kept (`keepPdfs`) for that window to
 * read: a window reads only its pages, and no window opens the whole document. When it is not,
 * the one job reads the bytes already read (the PDF, or the one the document was converted
 * to). Anything else (another kind, a URL source, batch priority, whose calls go to the
 * provider's batch interface in rounds) takes the one-job path.
 */
export async function splitStep(
  sources: Pick<
    SourcePreparer,
    'countUploadPages' | 'convertUpload' | 'prepareConverted' | 'cutPdf'
  >,
  keepPdfs: WindowStore['keepPdfs'],
  row: SplitRow,
  splitPages: number,
  { signal, preparations }: { signal: AbortSignal; preparations?: PreparationStore | undefined },
): Promise<SplitOutcome> {
  if (!row.file || row.priority === 'batch') return { next: 'one-job' };
  const file = { ref: row.fileRef, contentType: row.file.contentType, sha256: row.file.sha256 };
  // A document read before is not converted again (docs/reuse.md#preparations).
  const opts = { model: row.model, signal, citations: row.citationsRequested, preparations };
  const cut = async (pdf: Uint8Array, pagesTotal: number, notesPages: boolean) => {
    const plan = planWindows(pagesTotal, splitPages);
    const pdfs = await sources.cutPdf(
      pdf,
      plan.map((w) => ({ first: w.firstPage, last: w.lastPage, total: pagesTotal })),
      notesPages,
    );
    // A second run of the job (a crash after cutting) keeps the first run's PDFs: the same pages.
    await keepPdfs(
      row.id,
      plan.map((window, i) => ({ window, pdf: pdfs[i]! })),
      notesPages,
    );
    return { next: 'windows' as const, split: { pagesTotal, splitPages } };
  };
  if (row.sourceType === 'document') {
    const converted = await sources.convertUpload(row.sourceType, file, opts);
    if (!converted) return { next: 'one-job' };
    if (planWindows(converted.pageCount, splitPages).length === 0)
      return { next: 'whole', prepare: () => sources.prepareConverted(converted, opts) };
    return cut(converted.pdf, converted.pageCount, converted.notesPages);
  }
  if (row.sourceType !== 'pdf') return { next: 'one-job' };
  const counted = await sources.countUploadPages(row.sourceType, file, opts);
  if (!counted) return { next: 'one-job' };
  if (planWindows(counted.pageCount, splitPages).length === 0)
    return { next: 'whole', prepare: counted.prepare };
  return cut(counted.bytes, counted.pageCount, false);
}
