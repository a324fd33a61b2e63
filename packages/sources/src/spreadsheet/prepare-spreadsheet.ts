import { ExtractionFailure, type PreparedSource } from '@xt/contract';
import { checkArchive, type ArchiveLimits } from '../archive/bounds.ts';
import { readDelimited, tooManyCells } from './read-delimited.ts';
import { readXlsx, XlsxReadError } from './read-xlsx.ts';
import { sheetParts } from './model-text.ts';
import { cellCount, type Workbook } from './workbook.ts';

export interface SpreadsheetOptions {
  /** Non-empty cells of the whole workbook at most (MAX_SHEET_CELLS). */
  maxCells: number;
  archive: ArchiveLimits;
  /** Keep the cells as read, to locate values in (docs/citations.md). */
  citations: boolean;
}

/** The formats read in a prep process; XLS and ODS arrive converted to XLSX (convert.ts). */
export type ThreadFormat = 'xlsx' | 'csv' | 'tsv';

/**
 * What a prep process answers: the source, or that ExcelJS could not take the workbook apart (it
 * is stricter than Excel about namespace prefixes and a few other liberties real files take),
 * so that the caller can have LibreOffice rewrite it and try once more.
 */
export type SpreadsheetResult = { prepared: PreparedSource } | { unparsed: string };

/** A worksheet part of an XLSX archive, whose `<c>` elements are its cells. */
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;

async function readWorkbook(
  bytes: Buffer,
  format: ThreadFormat,
  opts: SpreadsheetOptions,
): Promise<Workbook> {
  if (format !== 'xlsx') return readDelimited(bytes, format, opts.maxCells);
  // Counted before ExcelJS builds a cell object for each: a sheet of millions of cells is refused
  // for the cost of inflating it once.
  await checkArchive(bytes, 'spreadsheet', opts.archive, {
    count: {
      entries: WORKSHEET,
      element: 'c',
      max: opts.maxCells,
      tooMany: () => tooManyCells(opts.maxCells),
    },
  });
  const book = await readXlsx(bytes);
  if (cellCount(book) > opts.maxCells) throw tooManyCells(opts.maxCells);
  return book;
}

/**
 * A spreadsheet's bytes as model input (the prep processes run this): every sheet as a table, in
 * order, with its name, values as displayed, long sheets in windows with their header rows
 * repeated; with citations, the cells as read.
 */
export async function prepareSpreadsheet(
  bytes: Buffer,
  format: ThreadFormat,
  opts: SpreadsheetOptions,
): Promise<SpreadsheetResult> {
  let book: Workbook;
  try {
    book = await readWorkbook(bytes, format, opts);
  } catch (err) {
    if (err instanceof XlsxReadError) return { unparsed: err.message };
    throw err;
  }
  if (cellCount(book) === 0)
    throw new ExtractionFailure('SOURCE_UNREADABLE', 'The spreadsheet has no values in any sheet.');
  const prepared: PreparedSource = { parts: sheetParts(book) };
  if (opts.citations) prepared.grounding = { kind: 'sheets', sheets: book.sheets };
  return { prepared };
}
