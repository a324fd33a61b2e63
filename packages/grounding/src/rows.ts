import { lowerBound } from './sorted.ts';

/**
 * Where each row of a source begins: offsets into its flat text, ascending, the first 0. A row
 * is what the values of one table row share: a line of a text, a band of a page (a PDF row's
 * cells sit side by side, each a line of its own), a sheet's row. Locating the values of one
 * array item together, and the items in order, works on rows alone, so any source kind that
 * says where its rows begin gets it (source-index.ts).
 */
export type RowStarts = readonly number[];

/** The row holding flat offset `offset`. */
export function rowAt(rows: RowStarts, offset: number): number {
  const k = lowerBound(rows, offset + 1) - 1;
  return Math.max(0, k);
}

/** `[from, to)`: the flat offsets of row `row`. */
export function rowSpan(rows: RowStarts, row: number, length: number): [number, number] {
  return [rows[row] ?? length, rows[row + 1] ?? length];
}

/** A text's rows are its lines. */
export function lineStarts(flat: string): number[] {
  const starts = [0];
  for (let at = flat.indexOf('\n'); at >= 0; at = flat.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** Boxes side by side: their vertical extents overlap by half the shorter one's height. */
export function sameBand(a: readonly number[], b: readonly number[]): boolean {
  const overlap = Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!);
  const shorter = Math.min(a[3]! - a[1]!, b[3]! - b[1]!);
  return shorter > 0 && overlap >= shorter / 2;
}

/**
 * A page source's rows: consecutive lines (a text layer's cells, in reading order) on one page
 * whose boxes share a band. Each new page starts a row.
 */
export function bandStarts(
  lines: readonly { page: number; start: number; box: readonly number[] }[],
): number[] {
  const starts: number[] = [0];
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k]!;
    const before = lines[k - 1]!;
    if (line.page !== before.page || !sameBand(before.box, line.box)) starts.push(line.start);
  }
  return starts;
}
