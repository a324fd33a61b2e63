import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { formFieldRuns, type UserSpaceRun } from './form-fields.ts';
import { linesInReadingOrder, type PlacedText } from './text-layer.ts';

function isTextItem(item: unknown): item is UserSpaceRun {
  return typeof item === 'object' && item !== null && 'str' in item && 'transform' in item;
}

/** Quarter turns (0–3) of a text run's baseline, counter-clockwise, in PDF user space. */
function quarterTurns([a = 1, b = 0]: number[]): number {
  return ((Math.round(Math.atan2(b, a) / (Math.PI / 2)) % 4) + 4) % 4;
}

/**
 * The page's text layer, with filled-in form field values, as lines in reading order. Positions are taken in the frame of the
 * page's dominant text direction rather than the display orientation: a page drawn sideways
 * and turned upright with /Rotate, and a page whose text simply runs sideways, both read along
 * their lines.
 */
export async function pageText(page: PDFPageProxy): Promise<string[]> {
  const content = await page.getTextContent();
  const items: UserSpaceRun[] = [];
  for (const item of content.items) if (isTextItem(item)) items.push(item);
  items.push(...(await formFieldRuns(page)));
  const weight = [0, 0, 0, 0];
  for (const item of items) weight[quarterTurns(item.transform)]! += item.str.length;
  const turns = weight.indexOf(Math.max(...weight));
  const placed: PlacedText[] = items.map((item) => {
    const [, , c = 0, d = 0, e = 0, f = 0] = item.transform;
    // Rotate (e, f) back by the dominant direction, then flip y so it grows down the page.
    const [x, y] = turns === 1 ? [f, -e] : turns === 2 ? [-e, -f] : turns === 3 ? [-f, e] : [e, f];
    return {
      str: item.str,
      x,
      y: -y,
      width: item.width,
      size: Math.hypot(c, d),
      rtl: item.dir === 'rtl',
    };
  });
  return linesInReadingOrder(placed);
}
