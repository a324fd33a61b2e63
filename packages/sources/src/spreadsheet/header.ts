import type { SheetRow } from './workbook.ts';

/** Rows looked at for a heading row; a table's headings are at its top. */
const LOOK_AT = 10;
/** Frozen rows repeated at most: a pane frozen halfway down the sheet is not a heading. */
const MAX_FROZEN = 3;

const FIGURE_MARKS = new Set([..." \u00a0.,'-+()%€$£¥"]);

/** A figure: digits with only signs, separators, currency and percent signs around them. */
function isFigure(text: string): boolean {
  let digit = false;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') digit = true;
    else if (!FIGURE_MARKS.has(ch)) return false;
  }
  return digit;
}

/**
 * The rows that head a sheet's table. The rows the author froze at the top say so themselves;
 * without them, the first of the top rows that is as wide as the table (at least two cells and
 * half as many as its widest row) and mostly words, not figures: a title above the table (one
 * merged cell) is passed over, and a sheet of bare figures has no heading.
 */
export function headerRows(rows: readonly SheetRow[], frozen: number): number[] {
  if (frozen > 0)
    return rows.filter((r) => r.row <= Math.min(frozen, MAX_FROZEN)).map((r) => r.row);
  const top = rows.slice(0, LOOK_AT);
  const widest = Math.max(0, ...rows.slice(0, 200).map((r) => r.cells.length));
  const heading = top.find(
    (r) =>
      r.cells.length >= 2 &&
      r.cells.length * 2 >= widest &&
      r.cells.filter((c) => isFigure(c.text)).length * 2 < r.cells.length,
  );
  return heading ? [heading.row] : [];
}
