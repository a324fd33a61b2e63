/**
 * What the review view's browser tests seed: where a line of `textPdf`'s text sits on its page,
 * and the page preview the worker would have stored for it.
 */
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { createPostgresBlobStore } from '@xt/blob-store';
import type { DbHandle } from '@xt/db';
import { textPdfWidth } from '@xt/testkit/fixtures';

/** US Letter in points, as `textPdf` draws it: 12 pt Helvetica from 72 pt in, a line every 16 pt. */
const PAGE = { width: 612, height: 792 };
const MARGIN = 72;
const LEADING = 16;
/** Helvetica's average advance at 12 pt, close enough for a box around a line. */
const CHAR = 6.2;
/** Stored previews are 1,000 pixels wide. */
const PREVIEW_WIDTH = 1000;

export type Box = [number, number, number, number];

/** The box of line `i` (from 0) of a `textPdf` page, `chars` long, in fractions of the page. */
export function textPdfLine(i: number, chars: number): Box {
  const baseline = MARGIN + i * LEADING;
  return [
    MARGIN / PAGE.width,
    (baseline - 11) / PAGE.height,
    (MARGIN + chars * CHAR) / PAGE.width,
    (baseline + 3) / PAGE.height,
  ];
}

/**
 * The box of `quote` where it first appears in line `i` (from 0) of a `textPdf` page, `text`
 * being the whole line: a value after its label, as on an invoice's line.
 */
export async function textPdfSpan(i: number, text: string, quote: string): Promise<Box> {
  const at = text.indexOf(quote);
  if (at < 0) throw new Error(`"${quote}" is not in "${text}"`);
  const [, top, , bottom] = textPdfLine(i, 0);
  const start = MARGIN + (await textPdfWidth(text.slice(0, at)));
  const end = start + (await textPdfWidth(quote));
  return [start / PAGE.width, top, end / PAGE.width, bottom];
}

/**
 * A page of `lines` drawn as `textPdf` places them, as the JPEG the worker stores, put in the
 * blob store: the ref `page_images` names it by. Liberation Sans has Helvetica's widths, so a
 * box placed by Helvetica's metrics sits on the drawn text.
 */
export async function storeTextPdfPreview(handle: DbHandle, lines: string[]): Promise<string> {
  const k = PREVIEW_WIDTH / PAGE.width;
  const escape = (t: string) =>
    t.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const text = lines
    .map(
      (t, i) =>
        `<text x="${MARGIN * k}" y="${(MARGIN + i * LEADING) * k}" font-family="Liberation Sans" font-size="${12 * k}">${escape(t)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${Math.round(PAGE.height * k)}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  const stored = await createPostgresBlobStore(handle.db).put(handle.db, Readable.from([jpeg]));
  return stored.ref;
}
