import ExcelJS from 'exceljs';
import { ExtractionFailure } from '@xt/contract';
import { displayText, type CellValue } from './display.ts';
import { headerRows } from './header.ts';
import type { Sheet, SheetCell, SheetRow, Workbook } from './workbook.ts';

/*
 * XLSX is read with ExcelJS: maintained, MIT, pure JavaScript (it runs in a prep process with
 * nothing native), and it keeps what the display needs: each formula's last computed result as
 * the file stores it (nothing is recalculated), each cell's number format, merged ranges, and
 * hidden sheets, rows and columns. It never follows a workbook's external links or data
 * connections: it reads the parts of the archive and nothing else. SheetJS's npm package
 * (`xlsx` 0.18.5) was the other candidate: its npm releases stopped in 2022 with known
 * advisories (prototype pollution, ReDoS) fixed only outside the registry.
 *
 * The archive's bounds (expanded size, entries, ratio, cells) are checked before this runs
 * (archive-bounds.ts), so the whole workbook is loaded at once.
 */

/** A workbook ExcelJS could not take apart (it is stricter than Excel about a few things). */
export class XlsxReadError extends Error {}

function valueOf(cell: ExcelJS.Cell): CellValue {
  const v = cell.value;
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || v instanceof Date) return v;
  if ('error' in v) return { error: String(v.error) };
  if ('richText' in v) return v.richText.map((run) => run.text).join('');
  // A hyperlink's text only: the address is never visited, and is not what the sheet shows.
  if ('hyperlink' in v) return textOf(v.text);
  if ('formula' in v || 'sharedFormula' in v) {
    // `cell.result`, not `value.result`: ExcelJS's value drops a falsy result (0, FALSE, "").
    // (Its type leaves out the booleans and errors it also returns.)
    const result = cell.result as ExcelJS.CellFormulaValue['result'] | null;
    // No stored result: computed to "" (stored as an empty value) or never computed by the
    // program that wrote it. Either way the sheet shows nothing until it is recalculated.
    if (result === undefined || result === null) return null;
    if (typeof result === 'object' && !(result instanceof Date))
      return { error: String(result.error) };
    return result;
  }
  return null;
}

/** A hyperlink's text: plain, or runs of rich text. */
function textOf(value: string | ExcelJS.CellRichTextValue): string {
  return typeof value === 'string' ? value : value.richText.map((run) => run.text).join('');
}

function readSheet(ws: ExcelJS.Worksheet): Sheet {
  const rows: SheetRow[] = [];
  ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: SheetCell[] = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      // The cells a merged range covers repeat its value in ExcelJS: it is shown once.
      if (cell.type === ExcelJS.ValueType.Merge) return;
      // Spaces around a value lay it out; they are not part of it.
      const text = displayText(valueOf(cell), cell.numFmt).trim();
      if (text !== '') cells.push({ col, text });
    });
    if (cells.length === 0) return;
    rows.push(row.hidden ? { row: rowNumber, cells, hidden: true } : { row: rowNumber, cells });
  });
  const hiddenColumns: number[] = [];
  for (let c = 1; c <= ws.columnCount; c++) if (ws.getColumn(c).hidden) hiddenColumns.push(c);
  const view = ws.views[0];
  const frozen = view?.state === 'frozen' ? (view.ySplit ?? 0) : 0;
  const sheet: Sheet = {
    name: ws.name,
    rows,
    hiddenColumns,
    headerRows: headerRows(rows, frozen),
  };
  if (ws.state === 'hidden' || ws.state === 'veryHidden') sheet.hidden = true;
  return sheet;
}

/** Every worksheet of an XLSX file, in the workbook's order, values as displayed. */
export async function readXlsx(bytes: Buffer): Promise<Workbook> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch (err) {
    throw new XlsxReadError(err instanceof Error ? err.message : String(err));
  }
  const sheets: Sheet[] = [];
  // `worksheets` is in the workbook's tab order; eachSheet would follow sheet ids.
  for (const ws of book.worksheets) sheets.push(readSheet(ws));
  if (sheets.length === 0)
    throw new ExtractionFailure('SOURCE_UNREADABLE', 'The spreadsheet has no worksheets.');
  return { sheets };
}
