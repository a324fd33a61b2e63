import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  ExtractionFailure,
  type ContentPart,
  type GroundingPage,
  type PreparedSource,
  type PublicModel,
} from '@xt/contract';
import { encodeForModel } from '../image/encode.ts';
import { actualTexts, type ActualTexts } from './actual-text.ts';
import { commentsText, notesLines, pageComments } from './document-extras.ts';
import { openPdf } from './open-pdf.ts';
import { imageCoverage } from './image-coverage.ts';
import type { OcrOptions } from '../ocr/index.ts';
import { ocrPage } from './ocr-page.ts';
import { pageLines } from './page-text.ts';
import { renderPage } from './render-page.ts';
import type { PlacedLine } from './text-layer.ts';
import { assessText } from './usable-text.ts';
import { documentPage, type WindowPages } from './window-pages.ts';

export type PdfMode = 'auto' | 'text' | 'images';

export interface PdfOptions {
  model: PublicModel;
  /** auto: text where the text layer is faithful, a page image where not. */
  mode: PdfMode;
  /** Refused before any page is read when the document has more pages. */
  maxPages: number;
  /**
   * Pages sent as images at most (docs/api.md#limits: 100): rendering is the expensive part, in CPU
   * here and in tokens at the model. Refused before any page work when `images` mode would
   * exceed it, and as soon as `auto` mode would.
   */
  maxImagePages: number;
  /** Embedded images with more pixels are skipped by the parser instead of decoded. */
  maxImagePixels: number;
  /** Keep each text page's lines with their boxes, to locate values in (citations asked for). */
  grounding?: boolean;
  /** With `grounding`: read pages sent as images with OCR, under this deadline per page. */
  ocr?: OcrOptions | undefined;
  /**
   * false: the model takes no images, so a page that would go as an image goes as its OCR text
   * (needs `ocr`), and a picture beside a page's good text is left out.
   */
  images?: boolean | undefined;
  /**
   * A document LibreOffice converted (docs/sources.md#documents): each page's comments are read
   * from its annotations, and with `notesPages` (a presentation) the second half of the pages
   * are the slides' notes pages, read as the notes of their slides rather than as pages.
   */
  converted?: { notesPages: boolean } | undefined;
  /**
   * Read only these pages (1-based, both inclusive, the document's own numbers): one page
   * window of a long document (docs/scaling.md#one-large-document). `pageCount` is still the
   * whole document's, and a window with nothing readable is empty rather than a failure: its
   * neighbours may have content. A range that ends before it starts reads only the count.
   */
  pages?: { first: number; last: number } | undefined;
  /**
   * The bytes are one page window's own PDF, cut from a longer document by the extraction's
   * job (docs/scaling.md#one-large-document): all of it is read, numbered as the document's
   * pages (page markers, grounding, units), and `pageCount` is the document's. As with
   * `pages`, a window with nothing readable is empty rather than a failure.
   */
  window?: WindowPages | undefined;
  /**
   * Read no page of a document with more pages than this: only `pageCount` is answered. A
   * count and, for a document short enough, its reading, with the PDF opened once (before a
   * long one's page windows are cut).
   */
  readUpTo?: number | undefined;
}

export type PreparedPdf = PreparedSource & {
  pageCount: number;
  textPages: number;
  imagePages: number;
};

const marker = (n: number) => `--- Page ${n} ---`;

/**
 * Turns PDF bytes into model input, page by page in order: a text part (page marker and the
 * text layer in reading order) for pages whose text can be trusted, a marker and a page image
 * rendered at the resolution the model sees for pages whose text cannot, and the text followed
 * by the image for good text beside a large picture. Pages with nothing on them are left out.
 */
export async function preparePdf(bytes: Uint8Array, opts: PdfOptions): Promise<PreparedPdf> {
  checkSignature(bytes);
  const { doc, close } = await openPdf(bytes, { maxImagePixels: opts.maxImagePixels });
  try {
    const pageCount = doc.numPages;
    // A presentation's export has a notes page per slide after the slides: half its pages.
    const notesFrom = opts.converted?.notesPages && pageCount % 2 === 0 ? pageCount / 2 : undefined;
    const pages = notesFrom ?? pageCount;
    if (pages > opts.maxPages) {
      throw new ExtractionFailure(
        'SOURCE_TOO_LARGE',
        `The ${noun(opts)} has ${pages} pages; at most ${opts.maxPages} are accepted.`,
      );
    }
    // Every page of the document is an image in this mode: a window's own PDF is checked by
    // the document's pages, so every window refuses before any work, as one job does.
    if (opts.mode === 'images' && (opts.window?.total ?? pages) > opts.maxImagePages)
      throw tooManyImagePages(opts.maxImagePages);
    if (opts.readUpTo !== undefined && pages > opts.readUpTo)
      return { parts: [], pageCount: opts.window?.total ?? pages, textPages: 0, imagePages: 0 };
    const read: ReadState = {
      parts: [],
      grounding: [],
      textPages: 0,
      imagePages: 0,
      ocrPages: 0,
      leftOut: 0,
      actual: actualTexts(bytes),
    };
    const cut = opts.window;
    const first = cut ? 1 : Math.max(1, opts.pages?.first ?? 1);
    const last = Math.min(pages, opts.pages?.last ?? pages);
    // A window may send its pages' share of the images, so that all of a document's windows
    // together send no more than the cap, as one job would (docs/scaling.md#one-large-document).
    const share = cut ?? (opts.pages && { first, last, total: pages });
    const pageOpts = share
      ? { ...opts, maxImagePages: imagePagesShare(opts.maxImagePages, share) }
      : opts;
    // Pages are opened by their place in these bytes and named by their place in the document.
    const numbered = (n: number) => (cut ? documentPage(cut, n) : n);
    for (let n = first; n <= last; n++) {
      const page = await doc.getPage(n);
      try {
        const lines = await readPage(page, numbered(n), pageOpts, read, share || undefined);
        if (opts.converted) {
          const notesPage = notesFrom === undefined ? undefined : notesFrom + n;
          const notes = notesPage && { at: notesPage, number: numbered(notesPage) };
          await readExtras(doc, page, numbered(n), lines, notes || undefined, opts, read);
        }
      } finally {
        page.cleanup();
      }
    }
    const { parts, grounding, textPages, imagePages, ocrPages, leftOut } = read;
    if (parts.length === 0 && !opts.pages && !cut) throw nothingReadable(pages, opts.mode);
    return {
      parts,
      pageCount: cut ? cut.total : pages,
      textPages,
      imagePages,
      ...(opts.grounding ? { grounding: { kind: 'pages', pages: grounding } } : {}),
      ...(ocrPages + leftOut > 0 ? { imagesAsText: { pages: ocrPages, images: 0, leftOut } } : {}),
    };
  } catch (err) {
    if (err instanceof ExtractionFailure) throw err;
    throw new ExtractionFailure('SOURCE_UNREADABLE', `The PDF could not be read: ${String(err)}`, {
      cause: err,
    });
  } finally {
    await close();
  }
}

interface ReadState {
  parts: ContentPart[];
  grounding: GroundingPage[];
  textPages: number;
  imagePages: number;
  /** Pages sent as their OCR text for a model that takes no images. */
  ocrPages: number;
  /** Pictures beside a page's text not sent, for a model that takes no images. */
  leftOut: number;
  /** What marked runs of the document's pages read as, where they say (actual-text.ts). */
  actual: ActualTexts;
}

/** "PDF", or what a converted document is called in messages. */
const noun = (opts: PdfOptions) => (opts.converted ? 'document (converted to PDF)' : 'PDF');

/**
 * One page into the parts (and its lines into the grounding, with citations): its text, its
 * image, or both, as `choose` decides. Returns the text layer's lines.
 */
async function readPage(
  page: PDFPageProxy,
  n: number,
  opts: PdfOptions,
  read: ReadState,
  window?: WindowPages,
): Promise<PlacedLine[]> {
  const { parts, grounding } = read;
  const lines =
    opts.mode === 'images' ? [] : await pageLines(page, opts.grounding === true, read.actual);
  const text = lines.map((line) => line.text).join('\n');
  const treatment = await choose(page, opts.mode, text);
  if (treatment === 'skip') return lines;
  if (treatment === 'text' || treatment === 'both') {
    parts.push({ kind: 'text', text: `${marker(n)}\n${text}`, unit: n });
    if (opts.grounding) grounding.push({ page: n, lines: groundingLines(lines) });
    read.textPages++;
    if (treatment === 'text') return lines;
  }
  if (opts.images === false) {
    if (treatment === 'both') read.leftOut++;
    else await readPageAsText(page, n, opts, read, window);
    return lines;
  }
  if (read.imagePages >= opts.maxImagePages) throw tooManyImagePages(opts.maxImagePages, window);
  const rendered = await renderPage(page, opts.model);
  if (rendered.blank) return lines;
  const image = await encodeForModel(rendered.rgb, rendered);
  // A page read from its image has no text layer to locate values in: OCR gives one.
  if (opts.grounding && opts.ocr && treatment === 'image')
    grounding.push({ page: n, lines: await ocrPage(page, opts.ocr), ocr: true });
  if (treatment !== 'both') parts.push({ kind: 'text', text: marker(n), unit: n });
  parts.push({
    kind: 'image',
    dataUrl: image.dataUrl,
    width: image.width,
    height: image.height,
    unit: n,
    detail: 'high',
  });
  read.imagePages++;
  return lines;
}

/**
 * A page that would go as an image, for a model that takes no images: its OCR lines as the
 * page's text, grounded as any OCR'd page. It counts against the image pages' cap: OCR costs
 * more CPU than the render it replaces. A page OCR finds nothing on is left out and not
 * counted, as a blank render is.
 */
async function readPageAsText(
  page: PDFPageProxy,
  n: number,
  opts: PdfOptions,
  read: ReadState,
  window?: WindowPages,
): Promise<void> {
  if (!opts.ocr) throw new Error('a page read as text needs OCR options');
  if (read.ocrPages >= opts.maxImagePages) throw tooManyImagePages(opts.maxImagePages, window);
  const lines = await ocrPage(page, opts.ocr);
  if (lines.length === 0) return;
  read.ocrPages++;
  const text = lines.map((line) => line.text).join('\n');
  read.parts.push({ kind: 'text', text: `${marker(n)}\n${text}`, unit: n });
  if (opts.grounding) read.grounding.push({ page: n, lines, ocr: true });
}

/**
 * What a converted document's export adds to page `n` beyond its drawing: the page's comments,
 * and a slide's speaker notes from its notes page. Both go to the model with page `n`; a
 * value quoted from them is cited where it is drawn: a comment at its marker on page `n`, a
 * note on the notes page, with its boxes (docs/citations.md).
 */
async function readExtras(
  doc: PDFDocumentProxy,
  page: PDFPageProxy,
  n: number,
  lines: PlacedLine[],
  /** The slide's notes page: where it is in the bytes, and its number in the document. */
  notesPage: { at: number; number: number } | undefined,
  opts: PdfOptions,
  read: ReadState,
): Promise<void> {
  const comments = await pageComments(page);
  if (comments.length > 0) {
    read.parts.push({
      kind: 'text',
      text: `Comments on page ${n}:\n${commentsText(comments)}`,
      unit: n,
    });
    if (opts.grounding) read.grounding.push({ page: n, lines: comments.flatMap((c) => c.lines) });
  }
  if (notesPage === undefined) return;
  const notes = await doc.getPage(notesPage.at);
  try {
    const slide = lines.length > 0 ? lines : await pageLines(page, false, read.actual);
    const kept = notesLines(await pageLines(notes, opts.grounding === true, read.actual), slide);
    if (kept.length === 0) return;
    read.parts.push({
      kind: 'text',
      text: `Speaker notes of page ${n} (drawn on page ${notesPage.number}):\n${kept.map((l) => l.text).join('\n')}`,
      unit: n,
    });
    if (opts.grounding)
      read.grounding.push({ page: notesPage.number, lines: groundingLines(kept) });
  } finally {
    notes.cleanup();
  }
}

/** The page's cells as lines to locate values in: a value's box then covers its own cell. */
function groundingLines(lines: PlacedLine[]): GroundingPage['lines'] {
  return lines.flatMap((line) => line.cells ?? []);
}

function tooManyImagePages(max: number, window?: WindowPages): ExtractionFailure {
  return new ExtractionFailure(
    'SOURCE_TOO_LARGE',
    window
      ? `Pages ${window.first}-${window.last} of the ${window.total}-page PDF need more than ${max} pages sent as images (scanned or image-only pages), their share of the pages a document may send as images.`
      : `The PDF needs more than ${max} pages sent as images (scanned or image-only pages); at most ${max} are accepted.`,
  );
}

/**
 * The pages a window may send as images: its pages' share of the document's `max`. The shares
 * of windows that tile the document add up to `max` exactly, whatever their sizes (each is the
 * difference of the rounded-down allowances at its two edges).
 */
export function imagePagesShare(max: number, window: WindowPages): number {
  if (window.last < window.first || window.total <= 0) return 0;
  const upTo = (page: number) => Math.floor((max * page) / window.total);
  return upTo(window.last) - upTo(window.first - 1);
}

/** A picture this large next to good text carries content the text layer does not have. */
const PICTURE_COVERAGE = 0.25;

type Treatment = 'text' | 'image' | 'both' | 'skip';

/**
 * Auto mode trusts a page's text layer when it reads as language, and adds the page image
 * when raster images cover a good part of the page too (a photo, a pasted scan, a chart: the
 * text layer cannot say what they show). When there is only a little text, a page that paints
 * any image is a scan (its text is a page number or an OCR stamp) and one that does not is a
 * short page of real text. A page with no text and no image may still carry vector drawings
 * or text converted to outlines, so it is rendered; the blank check drops it if nothing was
 * drawn.
 */
async function choose(page: PDFPageProxy, mode: PdfMode, text: string): Promise<Treatment> {
  if (mode === 'images') return 'image';
  const hasText = text.trim() !== '';
  if (mode === 'text') return hasText ? 'text' : 'skip';
  const quality = assessText(text);
  if (quality === 'garbled') return 'image';
  const coverage = await imageCoverage(page);
  if (quality === 'usable') return coverage >= PICTURE_COVERAGE ? 'both' : 'text';
  if (coverage > 0) return 'image';
  return hasText ? 'text' : 'image';
}

/**
 * pdf.js repairs a lot, so it would try to read anything; bytes with no `%PDF-` header near the
 * start are some other kind of file sent under a PDF label.
 */
function checkSignature(bytes: Uint8Array): void {
  if (bytes.length === 0)
    throw new ExtractionFailure('SOURCE_UNREADABLE', 'The PDF file is empty.');
  if (
    !Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).includes('%PDF-')
  ) {
    throw new ExtractionFailure(
      'SOURCE_UNSUPPORTED',
      'The file is not a PDF (it has no %PDF- header).',
    );
  }
}

function nothingReadable(pageCount: number, mode: PdfMode): ExtractionFailure {
  if (pageCount === 0) return new ExtractionFailure('SOURCE_UNREADABLE', 'The PDF has no pages.');
  const hint = mode === 'text' ? ' (no text layer: the pages may be scanned images)' : '';
  return new ExtractionFailure('SOURCE_UNREADABLE', `The PDF has no readable content${hint}.`);
}
