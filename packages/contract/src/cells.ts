/*
 * A1 references, as spreadsheets and citations name cells (docs/citations.md). Pure functions
 * without dependencies: the worker, the grounding and the dashboard all use them.
 */

/** `1` → `A`, `27` → `AA`, `16384` → `XFD`. */
export function columnName(col: number): string {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** `cellRef(2, 7)` → `B7`. */
export function cellRef(col: number, row: number): string {
  return `${columnName(col)}${row}`;
}
