import { TextDecoder } from 'node:util';
import { parse } from 'csv-parse/sync';
import { ExtractionFailure } from '@xt/contract';
import { csvDelimiter } from '@xt/formats';
import { headerRows } from './header.ts';
import type { SheetRow, Workbook } from './workbook.ts';

/** What a CSV or TSV file's one sheet is called: the file has no name for it. */
export const DELIMITED_SHEET = 'Sheet1';

/** Bytes looked at to choose between a comma and a semicolon. */
const SAMPLE_BYTES = 64 * 1024;

export function tooManyCells(max: number): ExtractionFailure {
  return new ExtractionFailure(
    'SOURCE_TOO_LARGE',
    `The spreadsheet has more than ${max.toLocaleString('en')} cells with a value; at most ${max.toLocaleString('en')} are accepted.`,
  );
}

/**
 * A CSV or TSV file as one sheet, read with `csv-parse` (RFC 4180 quoting, a field's line
 * breaks, a byte-order mark, rows of unequal length). Each record is a row, numbered as a
 * spreadsheet program opening the file numbers it (an empty line is an empty row), and each
 * field is shown as written (spaces around it aside): a CSV file holds text, not numbers and
 * formats.
 */
export function readDelimited(bytes: Buffer, format: 'csv' | 'tsv', maxCells: number): Workbook {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ExtractionFailure(
      'SOURCE_UNREADABLE',
      `The ${format.toUpperCase()} file is not UTF-8 text.`,
    );
  }
  const delimiter =
    format === 'tsv'
      ? '\t'
      : csvDelimiter(text.slice(0, SAMPLE_BYTES), text.length <= SAMPLE_BYTES);
  const rows: SheetRow[] = [];
  let cells = 0;
  // Each record is taken as it is parsed (and dropped by the parser): a file of millions of
  // fields fails at the bound instead of first becoming millions of strings.
  const take = (record: string[], row: number) => {
    const kept: SheetRow = { row, cells: [] };
    record.forEach((field, c) => {
      const text = field.trim();
      if (text !== '') kept.cells.push({ col: c + 1, text });
    });
    cells += kept.cells.length;
    if (cells > maxCells) throw tooManyCells(maxCells);
    if (kept.cells.length > 0) rows.push(kept);
  };
  try {
    parse(text, {
      delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      on_record: (record: string[], context) => {
        take(record, context.records);
        return null;
      },
    });
  } catch (err) {
    if (err instanceof ExtractionFailure) throw err;
    throw new ExtractionFailure(
      'SOURCE_UNREADABLE',
      `The ${format.toUpperCase()} file cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return {
    sheets: [{ name: DELIMITED_SHEET, rows, hiddenColumns: [], headerRows: headerRows(rows, 0) }],
  };
}
