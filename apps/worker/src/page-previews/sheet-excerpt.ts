import type { Citations, GroundingSheet, GroundingSource, SheetExcerpt } from '@xt/contract';

/** Rows kept above and below each cited cell: what the review shows around it, and more. */
const CONTEXT_ROWS = 8;
/** Cells kept at most, however many values were cited: a bound on what is stored. */
const MAX_CELLS = 50_000;
/** A cell's text is kept to this many characters: the review shows a cell, not a document. */
const MAX_CELL_CHARS = 300;

/** `B7` → 7; undefined for anything else. */
function rowOf(ref: string): number | undefined {
  const m = /^[A-Z]{1,3}([1-9]\d{0,6})$/.exec(ref);
  return m ? Number(m[1]) : undefined;
}

/** Whether `row` is within CONTEXT_ROWS of one of `cited` (ascending). */
function near(cited: number[], row: number): boolean {
  let lo = 0;
  let hi = cited.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cited[mid]! < row) lo = mid + 1;
    else hi = mid;
  }
  const after = cited[lo];
  const before = cited[lo - 1];
  return (
    (after !== undefined && after - row <= CONTEXT_ROWS) ||
    (before !== undefined && row - before <= CONTEXT_ROWS)
  );
}

/**
 * The cells a reviewer needs to see a spreadsheet's cited values in their place: for each sheet
 * with a grounded citation, its header rows and every row within CONTEXT_ROWS of a cited cell,
 * all their cells as displayed. Null for any other source, or when nothing was cited in a cell.
 * (A spreadsheet attached to an email is cited by part; its cells are not kept here.)
 */
export function sheetExcerpt(
  grounding: GroundingSource | undefined,
  citations: Citations | null,
): SheetExcerpt | null {
  if (grounding?.kind !== 'sheets' || !citations) return null;
  const cited = new Map<string, Set<number>>();
  for (const c of Object.values(citations)) {
    if (!c.grounded || c.sheet === undefined || c.cell === undefined || c.part !== undefined)
      continue;
    const row = rowOf(c.cell);
    if (row !== undefined)
      (cited.get(c.sheet) ?? cited.set(c.sheet, new Set()).get(c.sheet)!).add(row);
  }
  if (cited.size === 0) return null;
  const sheets: GroundingSheet[] = [];
  let cells = 0;
  for (const sheet of grounding.sheets) {
    const rows = cited.get(sheet.name);
    if (!rows) continue;
    const ascending = [...rows].sort((a, b) => a - b);
    const headers = new Set(sheet.headerRows ?? []);
    const kept: GroundingSheet = {
      name: sheet.name,
      hiddenColumns: sheet.hiddenColumns,
      headerRows: sheet.headerRows ?? [],
      rows: [],
      ...(sheet.hidden ? { hidden: true } : {}),
    };
    for (const row of sheet.rows) {
      if (!headers.has(row.row) && !near(ascending, row.row)) continue;
      if (cells + row.cells.length > MAX_CELLS) break;
      cells += row.cells.length;
      kept.rows.push({
        ...row,
        cells: row.cells.map((c) => ({ col: c.col, text: c.text.slice(0, MAX_CELL_CHARS) })),
      });
    }
    sheets.push(kept);
  }
  return { sheets };
}
