import { sameBand } from './rows.ts';
import type { SourceIndex } from './source-index.ts';
import { lowerBound } from './sorted.ts';

/** Where each line of an index starts, computed once per index. */
const lineStartsOf = new WeakMap<SourceIndex, number[]>();

/** The lines of a page beside a row: its page's flat range, and which offsets are on them. */
export interface Band {
  from: number;
  to: number;
  beside(at: number): boolean;
}

/**
 * The band of the row at flat `[from, to)` of a page source: the lines of its page whose boxes
 * share the row's band. OCR often reads a table's columns as blocks of their own, one after the
 * other (the descriptions and quantities, then the prices), so a row's cells are not consecutive
 * lines and a value of the row stands beside it on the page, far from it in reading order.
 * Null for a source without lines (a text, a sheet).
 */
export function bandOf(index: SourceIndex, from: number, to: number): Band | null {
  const { lines } = index;
  if (lines.length === 0) return null;
  let starts = lineStartsOf.get(index);
  if (!starts) lineStartsOf.set(index, (starts = lines.map((l) => l.start)));
  const first = lowerBound(starts, from);
  const last = lowerBound(starts, to) - 1;
  if (first > last) return null;
  const page = lines[first]!.page;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let k = first; k <= last; k++) {
    if (lines[k]!.page !== page) continue;
    y0 = Math.min(y0, lines[k]!.box[1]);
    y1 = Math.max(y1, lines[k]!.box[3]);
  }
  const band = [0, y0, 0, y1];
  let top = first;
  while (top > 0 && lines[top - 1]!.page === page) top--;
  let bottom = last;
  while (bottom + 1 < lines.length && lines[bottom + 1]!.page === page) bottom++;
  const end = lines[bottom]!.start + lines[bottom]!.length;
  return {
    from: lines[top]!.start,
    to: end,
    beside(at) {
      const line = lines[Math.max(0, lowerBound(starts, at + 1) - 1)]!;
      return line.page === page && sameBand(band, line.box);
    },
  };
}
