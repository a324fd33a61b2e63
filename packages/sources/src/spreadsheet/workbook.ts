import type { GroundingCell, GroundingRow, GroundingSheet } from '@xt/contract';

/*
 * A workbook as the service reads it, whatever file it came from: each sheet's cells as their
 * displayed text, with what the model and a reviewer need to know of the layout (hidden sheets,
 * rows and columns; the header rows). Plain data: it crosses from a prep process to the main loop.
 */

export type SheetCell = GroundingCell;
export type SheetRow = GroundingRow;

export interface Sheet extends GroundingSheet {
  /**
   * The rows that head the sheet's table, repeated at the top of every window of it sent to the
   * model: the rows the author froze at the top, else the first row that looks like column
   * headings (header.ts). Empty when there is none.
   */
  headerRows: number[];
}

export interface Workbook {
  sheets: Sheet[];
}

/** Every non-empty cell of the workbook. */
export function cellCount(book: Workbook): number {
  let n = 0;
  for (const sheet of book.sheets) for (const row of sheet.rows) n += row.cells.length;
  return n;
}
