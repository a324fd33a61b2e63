import { ExtractionFailure } from '@xt/contract';
import { openPdf } from './open-pdf.ts';
import { windowPageIndexes, type WindowPages } from './window-pages.ts';

export interface CutOptions {
  /** The document's pages, its windows are of (a presentation's slides: half the PDF's pages). */
  windows: WindowPages[];
  /** A presentation's export: each window takes its slides' notes pages too. */
  notesPages: boolean;
  maxImagePixels: number;
}

/**
 * Each page window's pages of a long document written into a PDF of its own, so that a window
 * job reads only its pages (docs/scaling.md#one-large-document). Run once, by the extraction's
 * job: the document is opened once here instead of once per window, which cost each window
 * 150–350 ms for a 1,000-page PDF, about as much as reading its own 40 pages.
 *
 * Written with pdf.js's `extractPages`, the reader the windows use, rather than pdf-lib: for a
 * 1,000-page text PDF (905 KB) cut into 25 windows it took 0.78 s (0.59 s CPU, of which 0.30 s
 * is opening it) against pdf-lib's 0.63 s, with its own parser, so a PDF pdf.js reads is one
 * it can cut. Its windows are larger (69 KB against 37 KB a 40-page window: each repeats the
 * fonts its pages use), which costs the blob store a copy of the document or two, not time.
 */
export async function cutPdf(bytes: Uint8Array, opts: CutOptions): Promise<Uint8Array[]> {
  const { doc, close } = await openPdf(bytes, { maxImagePixels: opts.maxImagePixels });
  try {
    const cut: Uint8Array[] = [];
    for (const w of opts.windows) {
      const includePages = windowPageIndexes(w, opts.notesPages);
      const last = includePages.at(-1)?.[1] ?? 0;
      if (last >= doc.numPages)
        throw new ExtractionFailure(
          'INTERNAL',
          `A page window ends on page ${last + 1} of a PDF of ${doc.numPages} pages.`,
        );
      cut.push(await doc.extractPages([{ document: null, includePages }]));
    }
    return cut;
  } catch (err) {
    if (err instanceof ExtractionFailure) throw err;
    throw new ExtractionFailure('SOURCE_UNREADABLE', `The PDF could not be cut: ${String(err)}`, {
      cause: err,
    });
  } finally {
    await close();
  }
}
