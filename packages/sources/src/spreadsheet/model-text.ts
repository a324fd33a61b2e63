import { columnName, type ContentPart } from '@xt/contract';
import type { Sheet, SheetRow, Workbook } from './workbook.ts';

/*
 * What the model reads of a workbook: each sheet as a Markdown table under its name, in order,
 * rows numbered as the sheet numbers them and columns lettered, so that "B7" means the same to
 * the model, the citations and a person with the file open. A long sheet is sent in windows of
 * rows, each its own part headed by the sheet's name and its header rows, so that the model
 * layer's chunking (which cuts between parts) never leaves rows without their column headings.
 */

/** A window's own rows at most, and its characters (about 3,000 tokens) at most. */
export const WINDOW_ROWS = 200;
export const WINDOW_CHARS = 12_000;

/** A cell as a Markdown table cell: one line, its pipes escaped. */
function cellText(text: string): string {
  return text.replace(/\r\n|[\r\n]/g, ' ').replaceAll('|', '\\|');
}

interface Columns {
  from: number;
  to: number;
  hidden: Set<number>;
}

/** The columns the sheet uses: from its first non-empty column to its last. */
function columnsOf(sheet: Sheet): Columns {
  let from = Infinity;
  let to = 0;
  for (const row of sheet.rows)
    for (const cell of row.cells) {
      if (cell.col < from) from = cell.col;
      if (cell.col > to) to = cell.col;
    }
  return { from, to, hidden: new Set(sheet.hiddenColumns) };
}

function rowLine(row: SheetRow, cols: Columns): string {
  const out: string[] = [];
  let k = 0;
  for (let c = cols.from; c <= cols.to; c++) {
    const cell = row.cells[k]?.col === c ? row.cells[k++] : undefined;
    out.push(cell ? cellText(cell.text) : '');
  }
  const label = row.hidden ? `${row.row} (hidden row)` : String(row.row);
  return `| ${label} | ${out.join(' | ')} |`;
}

function tableHead(cols: Columns): string {
  const names: string[] = [];
  for (let c = cols.from; c <= cols.to; c++)
    names.push(cols.hidden.has(c) ? `${columnName(c)} (hidden column)` : columnName(c));
  return `| Row | ${names.join(' | ')} |\n|---|${'---|'.repeat(names.length)}`;
}

function heading(
  sheet: Sheet,
  index: number,
  count: number,
  window: { first: number; last: number; lastRow: number; repeated: number[] },
): string {
  const hidden = sheet.hidden ? ' (hidden sheet)' : '';
  const rows =
    window.first === sheet.rows[0]?.row && window.last === window.lastRow
      ? ''
      : `, rows ${window.first}–${window.last} of ${window.lastRow}`;
  const repeated =
    window.repeated.length === 0
      ? ''
      : ` (header row${window.repeated.length > 1 ? 's' : ''} ${window.repeated.join(', ')} repeated)`;
  return `Sheet ${index + 1} of ${count}: "${sheet.name}"${hidden}${rows}${repeated}`;
}

/**
 * The workbook as the parts sent to the model: one part per window of a sheet (no `unit`: each
 * window stands alone, and no "[page]" label is printed for a sheet). An empty sheet is named
 * with a note, so that the model knows it is there.
 */
export function sheetParts(book: Workbook): ContentPart[] {
  const parts: ContentPart[] = [];
  const count = book.sheets.length;
  book.sheets.forEach((sheet, index) => {
    if (sheet.rows.length === 0) {
      const hidden = sheet.hidden ? ' (hidden sheet)' : '';
      parts.push({
        kind: 'text',
        text: `Sheet ${index + 1} of ${count}: "${sheet.name}"${hidden}: empty`,
      });
      return;
    }
    const cols = columnsOf(sheet);
    const head = tableHead(cols);
    const headers = new Set(sheet.headerRows);
    const headerLines = sheet.rows.filter((r) => headers.has(r.row)).map((r) => rowLine(r, cols));
    const lastRow = sheet.rows[sheet.rows.length - 1]!.row;
    let lines: string[] = [];
    // The window's own rows (its repeated header rows aside), and its characters.
    let own = 0;
    let chars = 0;
    let first = 0;
    let repeated: number[] = [];
    const flush = (last: number) => {
      if (lines.length === 0) return;
      const title = heading(sheet, index, count, { first, last, lastRow, repeated });
      parts.push({ kind: 'text', text: [title, head, ...lines].join('\n') });
      lines = [];
      own = 0;
      chars = 0;
    };
    let previous = 0;
    for (const row of sheet.rows) {
      const line = rowLine(row, cols);
      const full = own >= WINDOW_ROWS || chars + line.length > WINDOW_CHARS;
      if (full && !headers.has(row.row)) flush(previous);
      if (lines.length === 0) {
        first = row.row;
        // A window after the first starts with the header rows again, unless it holds them.
        repeated = headers.has(row.row) ? [] : sheet.headerRows.filter((r) => r < row.row);
        lines = repeated.length > 0 ? [...headerLines] : [];
        chars = lines.reduce((n, l) => n + l.length, 0);
      }
      lines.push(line);
      own += 1;
      chars += line.length + 1;
      previous = row.row;
    }
    flush(previous);
  });
  return parts;
}
