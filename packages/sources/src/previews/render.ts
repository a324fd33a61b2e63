import sharp, { type Sharp } from 'sharp';
import { openPdf } from '../pdf/open-pdf.ts';
import { renderPageAt } from '../pdf/render-page.ts';

/** Wide enough to read a line of an invoice on a laptop, small enough to store per page. */
export const PREVIEW_WIDTH = 1000;
/**
 * The page's size is whatever the file declares: a page 1 pt wide and 1,000 pt tall drawn at
 * the preview's width was a canvas of a billion pixels (3 GiB outside the prep thread's heap
 * bound, 100 s). A page taller than this is drawn narrower instead.
 */
const MAX_TALL = 8;
export const MAX_PREVIEW_HEIGHT = MAX_TALL * PREVIEW_WIDTH;
const JPEG_QUALITY = 75;

export interface PreviewTask {
  kind: 'previews';
  type: 'pdf' | 'image';
  bytes: Uint8Array;
  /** 1-based pages to draw (an image has page 1 only). */
  pages: number[];
  maxImagePixels: number;
  /**
   * How wide to draw them; PREVIEW_WIDTH unless said. A split bundle's page thumbnails
   * (docs/split.md) are drawn narrower: they are seen a hundred pixels wide.
   */
  width?: number;
}

export interface PagePreview {
  page: number;
  jpeg: Uint8Array;
}

const toJpeg = (image: Sharp) =>
  image
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: JPEG_QUALITY, mozjpeg: true })
    .toBuffer();

/**
 * JPEG previews of the pages that carry citations, for the dashboard's review view: PDF pages
 * drawn by pdf.js as the worker renders them for the model, images turned upright as OCR read
 * them. Citation boxes are fractions of the page, so any width shows them in place. Runs on a
 * prep process: drawing pages is CPU work.
 */
export async function renderPreviews(task: PreviewTask): Promise<PagePreview[]> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  if (task.type === 'image') {
    if (!task.pages.includes(1)) return [];
    const image = sharp(bytes, { limitInputPixels: task.maxImagePixels })
      .rotate()
      .resize({ width: task.width ?? PREVIEW_WIDTH, withoutEnlargement: true });
    return [{ page: 1, jpeg: await toJpeg(image) }];
  }
  const { doc, close } = await openPdf(bytes, { maxImagePixels: task.maxImagePixels });
  try {
    const previews: PagePreview[] = [];
    for (const n of task.pages) {
      if (n < 1 || n > doc.numPages) continue;
      const page = await doc.getPage(n);
      try {
        const size = previewSize(page.getViewport({ scale: 1 }), task.width);
        const drawn = await renderPageAt(page, size);
        const raw = sharp(drawn.rgb, {
          raw: { width: drawn.width, height: drawn.height, channels: 3 },
        });
        previews.push({ page: n, jpeg: await toJpeg(raw) });
      } finally {
        page.cleanup();
      }
    }
    return previews;
  } finally {
    await close();
  }
}

/** The page at the preview's width, or at most 8 widths tall, its aspect kept. */
export function previewSize(
  page: { width: number; height: number },
  width = PREVIEW_WIDTH,
): {
  width: number;
  height: number;
} {
  const scale = Math.min(width / page.width, (MAX_TALL * width) / page.height);
  return {
    width: Math.max(1, Math.round(page.width * scale)),
    height: Math.max(1, Math.round(page.height * scale)),
  };
}
