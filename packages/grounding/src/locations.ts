import type { CitationBox, GroundingSource } from '@xt/contract';
import { cumulativeWidths } from './glyph-widths.ts';
import type { IndexedCell, IndexedLine, IndexedPart, Layout, SourceIndex } from './source-index.ts';

export const MAX_QUOTE = 500;

export type How = 'exact' | 'normalised' | 'quote';

export interface Located {
  quote: string;
  page: number | null;
  boxes: CitationBox[];
  start: number | null;
  end: number | null;
  /** `parts` sources: the part (an email's body or attachment) the quote is in. */
  part?: string;
  /** `sheets` sources: the sheet and the cell (A1) the value is read in. */
  sheet?: string;
  cell?: string;
  /**
   * The quote stands on OCR words: the lowest confidence the OCR engine gave any of them (0–1).
   * Absent where the quote is read from a text layer or a text.
   */
  ocrConfidence?: number;
  how: How;
}

/** Where a quote stands; a layout may also say what the quote is (a sheet: the cell's text). */
type Place = Omit<Located, 'quote' | 'how'> & { quote?: string };

/**
 * The citation of `flat.slice(start, end)`: the quote, and where it stands in the source. A quote
 * over MAX_QUOTE characters is cut to that length from its start, and one that runs past the end
 * of its part (an email's attachment) is cut there: the rest is another part.
 */
export function locatedAt(index: SourceIndex, start: number, rawEnd: number, how: How): Located {
  let end = Math.min(rawEnd, start + MAX_QUOTE, partEnd(index, start));
  // Never cut a surrogate pair in two.
  const last = index.flat.charCodeAt(end - 1);
  if (end < rawEnd && last >= 0xd800 && last <= 0xdbff) end--;
  const place = placeIn(index.source, index, start, end);
  const quote = place.quote === undefined ? index.flat.slice(start, end) : cutQuote(place.quote);
  return { ...place, quote, how };
}

/** A quote cut to MAX_QUOTE characters, never between the two halves of a surrogate pair. */
function cutQuote(quote: string): string {
  if (quote.length <= MAX_QUOTE) return quote;
  const last = quote.charCodeAt(MAX_QUOTE - 1);
  return quote.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_QUOTE - 1 : MAX_QUOTE);
}

/** Where a quote at `[start, end)` of a layout's flat text stands, by the source's own kind. */
function placeIn(source: GroundingSource, layout: Layout, start: number, end: number): Place {
  switch (source.kind) {
    case 'text':
      return { page: null, boxes: [], start, end };
    case 'plain':
      return { page: null, boxes: [], start: null, end: null };
    case 'pages': {
      const { page, boxes, ocrConfidence } = pageBoxes(layout.flat, layout.lines, start, end);
      return {
        page,
        boxes,
        start: null,
        end: null,
        ...(ocrConfidence === undefined ? {} : { ocrConfidence }),
      };
    }
    case 'sheets':
      return cellsAt(layout.cells, start, end);
    case 'parts': {
      // Within its part, the quote is placed as that part's own kind places it.
      const p = partAt(layout.parts, start);
      if (!p) return { page: null, boxes: [], start: null, end: null };
      const inner = placeIn(p.source, p.layout, start - p.start, end - p.start);
      return { ...inner, part: inner.part === undefined ? p.part : `${p.part}/${inner.part}` };
    }
  }
}

/**
 * The cell a value read at `[start, end)` is in, and its quote: the cell's displayed text whole
 * (a value is verified against the cell it is read in, and cited as the cell shows it). A value
 * read across neighbouring cells of a row (a first and a last name) names its first cell and
 * quotes the cells it covers, joined by spaces.
 */
function cellsAt(cells: IndexedCell[], start: number, end: number): Place {
  const none = { page: null, boxes: [], start: null, end: null };
  const first = lastAtOrBefore(cells, start);
  if (first === undefined) return none;
  let last = first;
  while (last + 1 < cells.length && cells[last + 1]!.start < end) last++;
  const cell = cells[first]!;
  const quote =
    last === first
      ? cell.text
      : cells
          .slice(first, last + 1)
          .map((c) => c.text)
          .join(' ');
  return { ...none, sheet: cell.sheet, cell: cell.ref, quote };
}

/** The index of the last item starting at or before `offset`; undefined when none does. */
function lastAtOrBefore(items: readonly { start: number }[], offset: number): number | undefined {
  if (items.length === 0 || items[0]!.start > offset) return undefined;
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (items[mid]!.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The part holding flat offset `offset` (the last one starting at or before it). */
function partAt(parts: IndexedPart[], offset: number): IndexedPart | undefined {
  let lo = 0;
  let hi = parts.length - 1;
  if (hi < 0) return undefined;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (parts[mid]!.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return parts[lo];
}

/** Where the innermost part holding `offset` ends; the flat text's end outside parts. */
function partEnd(index: SourceIndex, offset: number): number {
  let end = index.flat.length;
  let base = 0;
  let parts = index.parts;
  for (let p = partAt(parts, offset - base); p; p = partAt(parts, offset - base)) {
    end = Math.min(end, base + p.start + p.layout.flat.length);
    base += p.start;
    parts = p.layout.parts;
  }
  return end;
}

function lineAt(lines: IndexedLine[], offset: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid]!.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * One box per line the quote covers, on the page where it starts. A partly covered line's box is
 * narrowed to the characters covered, each weighted by a common proportional font's width
 * (glyph-widths.ts): text-layer and OCR lines carry no per-character positions, and weighted
 * widths sit much closer to the glyphs than the whole line, or a plain character count, does.
 * On OCR lines, also the lowest confidence of the words the quote covers.
 */
function pageBoxes(
  flat: string,
  lines: IndexedLine[],
  start: number,
  end: number,
): { page: number | null; boxes: CitationBox[]; ocrConfidence?: number } {
  if (lines.length === 0) return { page: null, boxes: [] };
  const first = lineAt(lines, start);
  const page = lines[first]!.page;
  const boxes: CitationBox[] = [];
  let ocr = Infinity;
  for (let k = first; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.start >= end || line.page !== page) break;
    const from = Math.max(start, line.start) - line.start;
    const to = Math.min(end, line.start + line.length) - line.start;
    if (to <= from) continue;
    for (const word of line.words ?? [])
      if (word.start < to && word.end > from) ocr = Math.min(ocr, word.confidence);
    const [x0, y0, x1, y1] = line.box;
    const widths = cumulativeWidths(flat.slice(line.start, line.start + line.length));
    const total = widths[widths.length - 1] ?? 0;
    const share = (chars: number) => (total === 0 ? 0 : ((x1 - x0) * (widths[chars] ?? 0)) / total);
    boxes.push([x0 + share(from), y0, x0 + share(to), y1]);
  }
  return Number.isFinite(ocr) ? { page, boxes, ocrConfidence: ocr } : { page, boxes };
}
