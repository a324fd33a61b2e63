import { createCanvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PublicModel } from '@xt/contract';
import { visionSize, type Size } from '../image/vision-size.ts';

/** Past this density a render only adds pixels the model's resizing throws away. */
const MAX_DPI = 300;

export interface RenderedPage extends Size {
  /** Opaque 8-bit RGB. */
  rgb: Buffer;
  /** Every pixel the same colour: nothing drawn on the page. */
  blank: boolean;
}

/**
 * The pixel size to render a page at: the size the model would reduce a 300 dpi render to,
 * so pdf.js draws straight at the resolution the model sees (no oversized render, no second
 * resampling of glyph edges).
 */
export function renderSize(page: { width: number; height: number }, model: PublicModel): Size {
  const k = MAX_DPI / 72;
  return visionSize(model, {
    width: Math.round(page.width * k),
    height: Math.round(page.height * k),
  });
}

export function renderPage(page: PDFPageProxy, model: PublicModel): Promise<RenderedPage> {
  return renderPageAt(page, renderSize(page.getViewport({ scale: 1 }), model));
}

/** The page drawn at `size` pixels (its aspect kept, white behind it). */
export async function renderPageAt(page: PDFPageProxy, size: Size): Promise<RenderedPage> {
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({
    scale: Math.min(size.width / base.width, size.height / base.height),
  });
  const canvas = createCanvas(size.width, size.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size.width, size.height);
  // The types name a DOM canvas (absent from Node's type library); pdf.js drives
  // @napi-rs/canvas through the same 2D API, which is how its own Node canvas factory works.
  await page.render({ canvas: canvas as never, viewport }).promise;
  const rgba = context.getImageData(0, 0, size.width, size.height).data;
  const rgb = Buffer.alloc(size.width * size.height * 3);
  let blank = true;
  for (let p = 0, q = 0; p < rgba.length; p += 4, q += 3) {
    rgb[q] = rgba[p]!;
    rgb[q + 1] = rgba[p + 1]!;
    rgb[q + 2] = rgba[p + 2]!;
    if (blank && (rgba[p] !== rgba[0] || rgba[p + 1] !== rgba[1] || rgba[p + 2] !== rgba[2]))
      blank = false;
  }
  return { ...size, rgb, blank };
}
