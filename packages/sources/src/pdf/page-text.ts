import type { PageViewport, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  mayHaveActualText,
  withActualText,
  type ActualTexts,
  type ContentItem,
} from './actual-text.ts';
import { formFieldRuns, type UserSpaceRun } from './form-fields.ts';
import { placedLines, type PlacedLine, type PlacedText } from './text-layer.ts';

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
export async function pageText(page: PDFPageProxy, actual?: ActualTexts): Promise<string[]> {
  return (await pageLines(page, false, actual)).map((line) => line.text);
}

/**
 * The page's lines as pageText reads them; with `boxes`, each line also carries where it is
 * drawn, as fractions of the page seen upright (docs/citations.md). With `actual`, sequences
 * that say what they read as (`/ActualText`) are read so (actual-text.ts).
 */
export async function pageLines(
  page: PDFPageProxy,
  boxes: boolean,
  actual?: ActualTexts,
): Promise<PlacedLine[]> {
  const viewport = boxes ? page.getViewport({ scale: 1 }) : undefined;
  const items = await textRuns(page, actual);
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
      ...(viewport ? { box: runBox(item, viewport) } : {}),
    };
  });
  return placedLines(placed);
}

async function textRuns(page: PDFPageProxy, actual: ActualTexts | undefined) {
  const content = await page.getTextContent({ includeMarkedContent: actual !== undefined });
  const items: ContentItem[] = content.items.filter((item) => isTextItem(item) || 'type' in item);
  const marks = actual && mayHaveActualText(items) ? await actual.forPage(page.pageNumber) : null;
  return marks ? withActualText(items, marks) : items.filter(isTextItem);
}

/** Above and below the baseline, in font sizes: typical Latin ascent and descent. */
const ASCENT = 0.8;
const DESCENT = 0.2;

/**
 * A run's box: its baseline extended by the font's ascent and descent along the run's own up
 * direction, in PDF user space (origin bottom left), taken through the viewport (which applies
 * /Rotate and the crop box and puts the origin top left) and divided by the page's size.
 */
function runBox(item: UserSpaceRun, viewport: PageViewport): [number, number, number, number] {
  const [a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform;
  const along = Math.hypot(a, b) || 1;
  const dx = (a / along) * item.width;
  const dy = (b / along) * item.width;
  const corners: [number, number][] = [
    [e - DESCENT * c, f - DESCENT * d],
    [e + dx - DESCENT * c, f + dy - DESCENT * d],
    [e + ASCENT * c, f + ASCENT * d],
    [e + dx + ASCENT * c, f + dy + ASCENT * d],
  ];
  const points = corners.map(([x, y]) => viewport.convertToViewportPoint(x, y) as [number, number]);
  const xs = points.map(([x]) => x / viewport.width);
  const ys = points.map(([, y]) => y / viewport.height);
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return [
    clamp(Math.min(...xs)),
    clamp(Math.min(...ys)),
    clamp(Math.max(...xs)),
    clamp(Math.max(...ys)),
  ];
}
