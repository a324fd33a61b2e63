import { sameBand } from './rows.ts';
import type { SourceIndex } from './source-index.ts';
import { lowerBound } from './sorted.ts';

/** Where each line of an index starts, computed once per index. */
const lineStartsOf = new WeakMap<SourceIndex, number[]>();

/**
 * The lines beside the row at flat `[from, to)` of a page source, as flat ranges: the other lines
 * of its page whose boxes share the row's band. OCR often reads a table's columns as blocks of
 * their own, one after the other (the descriptions and quantities, then the prices), so a row's
 * cells are not consecutive lines, and a value of the row stands beside it on the page, far from
 * it in reading order. None for a source without lines (a text, a sheet).
 */
export function linesBeside(index: SourceIndex, from: number, to: number): [number, number][] {
  const { lines } = index;
  if (lines.length === 0) return [];
  let starts = lineStartsOf.get(index);
  if (!starts) lineStartsOf.set(index, (starts = lines.map((l) => l.start)));
  const first = lowerBound(starts, from);
  const last = lowerBound(starts, to) - 1;
  if (first > last) return [];
  const page = lines[first]!.page;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let k = first; k <= last; k++) {
    if (lines[k]!.page !== page) continue;
    y0 = Math.min(y0, lines[k]!.box[1]);
    y1 = Math.max(y1, lines[k]!.box[3]);
  }
  const band = [0, y0, 0, y1];
  const beside: [number, number][] = [];
  const look = (k: number) => {
    const line = lines[k]!;
    if (sameBand(band, line.box)) beside.push([line.start, line.start + line.length]);
  };
  for (let k = first - 1; k >= 0 && lines[k]!.page === page; k--) look(k);
  for (let k = last + 1; k < lines.length && lines[k]!.page === page; k++) look(k);
  return beside.sort((a, b) => a[0] - b[0]);
}
