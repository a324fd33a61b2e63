import type { CitationBox, GroundingSource } from '@xt/contract';
import { cumulativeWidths } from './glyph-widths.ts';
import type { IndexedLine, IndexedPart, Layout, SourceIndex } from './source-index.ts';

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
  how: How;
}

type Place = Omit<Located, 'quote' | 'how'>;

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
  const quote = index.flat.slice(start, end);
  return { quote, ...placeIn(index.source, index, start, end), how };
}

/** Where a quote at `[start, end)` of a layout's flat text stands, by the source's own kind. */
function placeIn(source: GroundingSource, layout: Layout, start: number, end: number): Place {
  switch (source.kind) {
    case 'text':
      return { page: null, boxes: [], start, end };
    case 'plain':
      return { page: null, boxes: [], start: null, end: null };
    case 'pages': {
      const { page, boxes } = pageBoxes(layout.flat, layout.lines, start, end);
      return { page, boxes, start: null, end: null };
    }
    case 'parts': {
      // Within its part, the quote is placed as that part's own kind places it.
      const p = partAt(layout.parts, start);
      if (!p) return { page: null, boxes: [], start: null, end: null };
      const inner = placeIn(p.source, p.layout, start - p.start, end - p.start);
      return { ...inner, part: inner.part === undefined ? p.part : `${p.part}/${inner.part}` };
    }
  }
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
 */
function pageBoxes(
  flat: string,
  lines: IndexedLine[],
  start: number,
  end: number,
): { page: number | null; boxes: CitationBox[] } {
  if (lines.length === 0) return { page: null, boxes: [] };
  const first = lineAt(lines, start);
  const page = lines[first]!.page;
  const boxes: CitationBox[] = [];
  for (let k = first; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.start >= end || line.page !== page) break;
    const from = Math.max(start, line.start) - line.start;
    const to = Math.min(end, line.start + line.length) - line.start;
    if (to <= from) continue;
    const [x0, y0, x1, y1] = line.box;
    const widths = cumulativeWidths(flat.slice(line.start, line.start + line.length));
    const total = widths[widths.length - 1] ?? 0;
    const share = (chars: number) => (total === 0 ? 0 : ((x1 - x0) * (widths[chars] ?? 0)) / total);
    boxes.push([x0 + share(from), y0, x0 + share(to), y1]);
  }
  return { page, boxes };
}
