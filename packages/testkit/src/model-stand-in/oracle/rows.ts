import { isLabelLine } from './labelled.ts';
import { scalarType, unwrapNullable, type JsonSchema, type ScalarType } from './schema-walk.ts';
import { readScalar } from './values.ts';

interface Column {
  key: string;
  type: ScalarType;
  nullable: boolean;
  schema: JsonSchema;
}

/**
 * Every line of the text that reads as one item of an array of flat objects: its cells, split
 * at Markdown pipes, tabs (how the PDF text layer marks cell gaps) or runs of spaces, must be as
 * many as the item has fields (a sheet's row number aside) and each must read as its field's
 * type. When a line has no such
 * separators (OCR text), the fields are matched by type from both ends. Header rows fail the
 * types and are skipped, so no header is needed: a chunk that starts mid-table still reads.
 */
export function findRows(
  lines: string[],
  itemSchema: JsonSchema,
): Record<string, unknown>[] | undefined {
  const properties = itemSchema.properties;
  if (typeof properties !== 'object' || properties === null) return undefined;
  const columns: Column[] = [];
  for (const [key, child] of Object.entries(properties as Record<string, unknown>)) {
    const { schema, nullable } = unwrapNullable(child);
    const type = scalarType(schema);
    if (!type) return undefined;
    columns.push({ key, type, nullable, schema });
  }
  if (columns.length < 2) return undefined;
  const rows: Record<string, unknown>[] = [];
  for (const line of lines) {
    const row = readRow(line, columns);
    if (row) rows.push(row);
  }
  return rows;
}

/** The row number a sheet's table starts each row with (docs/sources.md#spreadsheets). */
const SHEET_ROW = /^\d+(?: \(hidden row\))?$/;

function readRow(line: string, columns: Column[]): Record<string, unknown> | undefined {
  const split = splitCells(line);
  // A sheet's row is read past its number, as a reader skips the margin.
  const cells =
    split && split.length === columns.length + 1 && SHEET_ROW.test(split[0]!)
      ? split.slice(1)
      : split;
  if (cells) return cells.length === columns.length ? typed(cells, columns) : undefined;
  if (isLabelLine(line)) return undefined;
  const match = rowPattern(columns).exec(line.trim());
  return match ? typed(match.slice(1), columns) : undefined;
}

function splitCells(line: string): string[] | undefined {
  const text = line.trim();
  if (text.startsWith('|')) {
    if (/^\|[\s|:-]+\|$/.test(text)) return [];
    return text
      .slice(1, text.endsWith('|') ? -1 : undefined)
      .split(/(?<!\\)\|/)
      .map((c) => c.replaceAll('\\|', '|').trim());
  }
  if (text.includes('\t')) return text.split('\t').map((c) => c.trim());
  if (/ {2,}/.test(text)) return text.split(/ {2,}/).map((c) => c.trim());
  return undefined;
}

function typed(cells: string[], columns: Column[]): Record<string, unknown> | undefined {
  // A line of one value (a title above a table, a merged cell) is no item.
  if (cells.filter((c) => c.trim() !== '').length < 2) return undefined;
  const row: Record<string, unknown> = {};
  for (const [i, column] of columns.entries()) {
    const cell = cells[i] ?? '';
    const value = readScalar(cell, column.type, column.schema);
    if (value === undefined) {
      if (cell.trim() !== '' || !column.nullable) return undefined;
      row[column.key] = null;
    } else row[column.key] = value;
  }
  return row;
}

const patterns = new WeakMap<Column[], RegExp>();

function rowPattern(columns: Column[]): RegExp {
  let pattern = patterns.get(columns);
  if (!pattern) {
    const parts = columns.map((c) =>
      c.type === 'string'
        ? '(.+?)'
        : c.type === 'boolean'
          ? '(\\S+)'
          : '([-+]?[\\d,]+(?:\\.\\d+)?)',
    );
    pattern = new RegExp(`^${parts.join('\\s+')}$`);
    patterns.set(columns, pattern);
  }
  return pattern;
}
