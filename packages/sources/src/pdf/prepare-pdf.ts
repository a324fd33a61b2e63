import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  ExtractionFailure,
  type ContentPart,
  type GroundingPage,
  type PreparedSource,
  type PublicModel,
} from '@xt/contract';
import { encodeForModel } from '../image/encode.ts';
import { openPdf } from './open-pdf.ts';
import { imageCoverage } from './image-coverage.ts';
import type { OcrOptions } from '../ocr/index.ts';
import { ocrPage } from './ocr-page.ts';
import { pageLines } from './page-text.ts';
import { renderPage } from './render-page.ts';
import type { PlacedLine } from './text-layer.ts';
import { assessText } from './usable-text.ts';

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
    if (pageCount > opts.maxPages) {
      throw new ExtractionFailure(
        'SOURCE_TOO_LARGE',
        `The PDF has ${pageCount} pages; at most ${opts.maxPages} are accepted.`,
      );
    }
    if (opts.mode === 'images' && pageCount > opts.maxImagePages)
      throw tooManyImagePages(opts.maxImagePages);
    const parts: ContentPart[] = [];
    const grounding: GroundingPage[] = [];
    let textPages = 0;
    let imagePages = 0;
    for (let n = 1; n <= pageCount; n++) {
      const page = await doc.getPage(n);
      try {
        const lines = opts.mode === 'images' ? [] : await pageLines(page, opts.grounding === true);
        const text = lines.map((line) => line.text).join('\n');
        const treatment = await choose(page, opts.mode, text);
        if (treatment === 'skip') continue;
        if (treatment === 'text' || treatment === 'both') {
          parts.push({ kind: 'text', text: `${marker(n)}\n${text}`, unit: n });
          if (opts.grounding) grounding.push({ page: n, lines: groundingLines(lines) });
          textPages++;
          if (treatment === 'text') continue;
        }
        if (imagePages >= opts.maxImagePages) throw tooManyImagePages(opts.maxImagePages);
        const rendered = await renderPage(page, opts.model);
        if (rendered.blank) continue;
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
        imagePages++;
      } finally {
        page.cleanup();
      }
    }
    if (parts.length === 0) throw nothingReadable(pageCount, opts.mode);
    return {
      parts,
      pageCount,
      textPages,
      imagePages,
      ...(opts.grounding ? { grounding: { kind: 'pages', pages: grounding } } : {}),
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

/** The page's cells as lines to locate values in: a value's box then covers its own cell. */
function groundingLines(lines: PlacedLine[]): GroundingPage['lines'] {
  return lines.flatMap((line) => line.cells ?? []);
}

function tooManyImagePages(max: number): ExtractionFailure {
  return new ExtractionFailure(
    'SOURCE_TOO_LARGE',
    `The PDF needs more than ${max} pages sent as images (scanned or image-only pages); at most ${max} are accepted.`,
  );
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
