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

/** `B7` → `{ col: 2, row: 7 }`; undefined for anything that is not an A1 reference. */
export function parseCellRef(ref: string): { col: number; row: number } | undefined {
  const m = /^([A-Z]{1,3})([1-9]\d{0,6})$/.exec(ref);
  if (!m) return undefined;
  let col = 0;
  for (const ch of m[1]!) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col, row: Number(m[2]) };
}
