import { mayWorkInPageWindows, traitsOf, type PreparedSource } from '@xt/contract';
import { bundledPages } from '../split/bundled-pages.ts';
import type { FetchedFile, PreparationStore, SourcePreparer, UploadedSource } from '@xt/sources';
import type { ExtractionRow } from '../lifecycle.ts';
import { pagesOfOneJob, planWindows } from './plan.ts';
import type { WindowStore } from './store.ts';

/** How a long document is split: its pages, and how many a window holds. */
export interface WindowSplit {
  pagesTotal: number;
  splitPages: number;
  /** A document's tracked changes accepted when it was converted: the merge warns of them. */
  revisions?: { message: string };
}

type SplitRow = Pick<
  ExtractionRow,
  'id' | 'sourceType' | 'source' | 'file' | 'fileRef' | 'model' | 'priority' | 'citationsRequested'
> &
  Partial<Pick<ExtractionRow, 'pages'>>;

export type SplitOutcome =
  /**
   * Long enough for page windows: `cut` cuts each window's pages into a PDF of its own and
   * keeps them. A URL source says what it was `found` to be first, so that what one job records
   * after fetching is recorded, and an earlier answer for the same bytes can be taken instead
   * of cutting anything.
   */
  | { next: 'windows'; split: WindowSplit; found?: FetchedLong; cut: () => Promise<void> }
  /**
   * Short enough for one job, and already read as its pages were counted (a PDF, a document
   * converted) or fetched (a URL source of another kind): `prepare` answers that reading, or
   * reads the fetched bytes.
   */
  | { next: 'whole'; prepare: () => Promise<PreparedSource> }
  /** The one-job path, from the start. */
  | { next: 'one-job' };

/** What a URL source was found to be once fetched, before its windows are cut. */
export type FetchedLong = Pick<FetchedFile, 'kind' | 'format' | 'sha256' | 'contentType'>;

/**
 * Whether the extraction is worked as page windows (docs/scaling.md#one-large-document): a
 * kind the registry works in page windows (`pdf`, `document`), uploaded or given by URL
 * (`auto` too, when the content is one), with more than `splitPages` pages. A URL source is
 * fetched here, once, through the same fetcher as one job's. A document is converted to PDF
 * here, once. The PDF is opened once: its pages counted and, when they fit in one job, read
 * in the same pass. When it is long, the caller is told so (and what a URL source was found to be)
 * before anything is cut; `cut` then cuts each window's pages into a PDF of its own, once, and
 * keeps them (`keepPdfs`) for that window to read: a window reads only its pages, no window
 * opens the whole document, and none fetches the URL. When it
 * is not, the one job reads what was already read or fetched (the PDF, the one the document
 * was converted to, or any other kind an `auto` URL turned out to be): nothing is read or
 * fetched twice. Anything else (another kind, batch priority, whose calls go to the provider's
 * batch interface in rounds) takes the one-job path.
 */
export async function splitStep(
  sources: Pick<
    SourcePreparer,
    'countUploadPages' | 'convertUpload' | 'cutPdf' | 'fetchUrl' | 'prepareFetched'
  >,
  keepPdfs: WindowStore['keepPdfs'],
  row: SplitRow,
  splitPages: number,
  {
    signal,
    preparations,
    images = true,
  }: {
    signal: AbortSignal;
    preparations?: PreparationStore | undefined;
    /** false: the model takes no images; a short source prepared here reads scans as text. */
    images?: boolean | undefined;
  },
): Promise<SplitOutcome> {
  if (row.priority === 'batch') return { next: 'one-job' };
  // A document of a split bundle (docs/split.md): its own PDF holds the bundle's pages `from`
  // to `to`, read with the bundle's numbers whole or in windows (numbered from `from`), and
  // never taken from or kept in preparations, which number pages from 1.
  const bundled = bundledPages(row);
  const offset = bundled ? bundled.from - 1 : 0;
  // A document read before is not converted again (docs/reuse.md#preparations).
  const opts = {
    model: row.model,
    signal,
    citations: row.citationsRequested,
    ...(bundled
      ? { window: { first: bundled.from, last: bundled.to, total: bundled.to - bundled.from + 1 } }
      : { preparations }),
    ...(images ? {} : { images }),
  };
  let file: UploadedSource | FetchedFile;
  let kind = row.sourceType;
  let otherwise: SplitOutcome = { next: 'one-job' };
  let fetched: FetchedFile | undefined;
  if (row.file) {
    file = { ref: row.fileRef, contentType: row.file.contentType, sha256: row.file.sha256 };
  } else {
    if (!mayWorkInPageWindows(row.sourceType)) return { next: 'one-job' };
    fetched = await sources.fetchUrl(row.sourceType, row.source, opts);
    if (!fetched) return { next: 'one-job' };
    const got = fetched;
    file = got;
    kind = got.kind;
    // Fetched: whatever it is, the one job reads these bytes, not the URL again.
    otherwise = { next: 'whole', prepare: () => sources.prepareFetched(got, opts) };
  }
  const cut = (
    pdf: Uint8Array,
    pagesTotal: number,
    notesPages: boolean,
    revisions?: WindowSplit['revisions'],
  ): SplitOutcome => ({
    next: 'windows',
    split: { pagesTotal, splitPages, ...(revisions ? { revisions } : {}) },
    ...(fetched ? { found: fetched } : {}),
    cut: async () => {
      const plan = planWindows(pagesTotal, splitPages);
      const pdfs = await sources.cutPdf(
        pdf,
        plan.map((w) => ({ first: w.firstPage, last: w.lastPage, total: pagesTotal })),
        notesPages,
      );
      // A second run of the job (a crash after cutting) keeps the first run's PDFs: the same pages.
      await keepPdfs(
        row.id,
        plan.map((window, i) => ({
          window: {
            ...window,
            firstPage: window.firstPage + offset,
            lastPage: window.lastPage + offset,
          },
          pdf: pdfs[i]!,
        })),
        notesPages,
      );
    },
  });
  if (!traitsOf(kind).pageWindows) return otherwise;
  if (traitsOf(kind).convertedToPdf) {
    // Converted and its PDF opened once: read whole there when it is short enough for one job.
    const converted = await sources.convertUpload(kind, file, opts, pagesOfOneJob(splitPages));
    if (!converted) return otherwise;
    const { read } = converted;
    if (read) return { next: 'whole', prepare: () => Promise.resolve(read) };
    return cut(converted.pdf, converted.pageCount, converted.notesPages, converted.revisions);
  }
  // Counted and, when short enough for one job, read in the same opening of the PDF.
  const counted = await sources.countUploadPages(kind, file, opts, pagesOfOneJob(splitPages));
  if (!counted) return otherwise;
  const { read } = counted;
  if (read) return { next: 'whole', prepare: () => Promise.resolve(read) };
  return cut(counted.bytes, counted.pageCount, false);
}
