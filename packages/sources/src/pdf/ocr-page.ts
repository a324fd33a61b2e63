import sharp from 'sharp';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { GroundingLine } from '@xt/contract';
import { ocrLines, type OcrOptions } from '../ocr/index.ts';
import { renderPageAt } from './render-page.ts';

/** Tesseract reads body text well from about 200 dpi; the model's own render is far coarser. */
const OCR_DPI = 200;
/** A poster-sized page is read at no more than this many pixels along its longer side. */
const MAX_OCR_SIDE = 4_000;

/** A scanned page's lines, read by OCR from a render made for it (docs/citations.md). */
export async function ocrPage(page: PDFPageProxy, opts: OcrOptions): Promise<GroundingLine[]> {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(OCR_DPI / 72, MAX_OCR_SIDE / Math.max(base.width, base.height));
  const size = { width: Math.round(base.width * scale), height: Math.round(base.height * scale) };
  const rendered = await renderPageAt(page, size);
  const png = await sharp(rendered.rgb, { raw: { ...size, channels: 3 } })
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
  return ocrLines(png, size, opts);
}
