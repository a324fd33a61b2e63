import { useEffect, useRef } from 'preact/hooks';
import { columnName, cellRef } from '@xt/contract/cells';
import type { GroundingSheet } from '@xt/contract';

/** A rectangle of a sheet: rows and columns, 1-based and inclusive. */
export interface SheetWindow {
  rows: [number, number];
  cols: [number, number];
}

/**
 * A window of a sheet drawn as the sheet is: column letters across the top, row numbers down
 * the side, the sheet's header rows above the window when they are outside it, hidden rows and
 * columns marked. Cells named in `marks` are marked (the active one strongly) and, with
 * `onSelect`, select their field when clicked. Rows the stored cells do not hold are empty.
 */
export function SheetGrid(props: {
  sheet: GroundingSheet;
  window: SheetWindow;
  /** A1 reference → the pointer of the field cited there. */
  marks: ReadonlyMap<string, string>;
  active: string | undefined;
  onSelect?: ((pointer: string) => void) | undefined;
  label: string;
}) {
  const { sheet, window, marks, active } = props;
  const byRow = new Map(sheet.rows.map((r) => [r.row, r]));
  const hiddenCols = new Set(sheet.hiddenColumns);
  const cols: number[] = [];
  for (let c = window.cols[0]; c <= window.cols[1]; c++) cols.push(c);
  const headerRows = new Set(sheet.headerRows ?? []);
  const headers = [...headerRows].filter((r) => r < window.rows[0]).sort((a, b) => a - b);
  const rows: number[] = [];
  for (let r = window.rows[0]; r <= window.rows[1]; r++) rows.push(r);

  const line = (r: number, header: boolean) => {
    const row = byRow.get(r);
    const cells = new Map(row?.cells.map((c) => [c.col, c.text]));
    return (
      <tr key={r} class={header ? 'sheet-grid__header' : undefined}>
        <th scope="row" title={row?.hidden ? 'hidden row' : undefined}>
          {r}
          {row?.hidden && <span class="sheet-grid__hidden"> hidden</span>}
        </th>
        {cols.map((c) => {
          const ref = cellRef(c, r);
          const pointer = marks.get(ref);
          const text = cells.get(c) ?? '';
          const classes = [
            pointer !== undefined && 'sheet-grid__cited',
            ref === active && 'sheet-grid__active',
            hiddenCols.has(c) && 'sheet-grid__hidden-col',
          ].filter(Boolean);
          return (
            <td
              key={c}
              class={classes.join(' ') || undefined}
              data-cell={ref}
              data-pointer={pointer}
              aria-current={ref === active ? 'true' : undefined}
              onClick={
                pointer !== undefined && props.onSelect ? () => props.onSelect!(pointer) : undefined
              }
            >
              {text}
            </td>
          );
        })}
      </tr>
    );
  };

  // A grid wider than its box scrolls sideways on its own: the active cell is brought into its
  // view there (scrollIntoView would move the window too, away from the field just tapped).
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = scroller.current;
    const cell = box?.querySelector<HTMLElement>('td.sheet-grid__active');
    if (!box || !cell) return;
    const left = cell.offsetLeft - box.clientWidth / 2 + cell.offsetWidth / 2;
    box.scrollLeft = Math.max(0, left);
  }, [active, window.cols[0], window.cols[1]]);

  return (
    <div class="sheet-grid__scroll" ref={scroller}>
      <table class="sheet-grid" aria-label={props.label}>
        <thead>
          <tr>
            <th />
            {cols.map((c) => (
              <th key={c} scope="col" title={hiddenCols.has(c) ? 'hidden column' : undefined}>
                {columnName(c)}
                {hiddenCols.has(c) && <span class="sheet-grid__hidden"> hidden</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {headers.map((r) => line(r, true))}
          {headers.length > 0 && headers.at(-1)! + 1 < window.rows[0] && (
            <tr class="sheet-grid__gap" aria-hidden="true">
              <th>…</th>
              <td colSpan={cols.length} />
            </tr>
          )}
          {rows.map((r) => line(r, headerRows.has(r)))}
        </tbody>
      </table>
    </div>
  );
}

/** A window of `rows` × `cols` around a cell, within the sheet's first row and column. */
export function around(at: { row: number; col: number }, rows: number, cols: number): SheetWindow {
  const top = Math.max(1, at.row - rows);
  const left = Math.max(1, at.col - cols);
  return { rows: [top, at.row + rows], cols: [left, left + 2 * cols] };
}

/**
 * A window held to what the stored cells reach: past their last row and column the sheet is
 * empty (or was not stored), and a grid of blank cells shows nothing.
 */
export function within(sheet: GroundingSheet, window: SheetWindow): SheetWindow {
  let lastRow = 1;
  let lastCol = 1;
  for (const row of sheet.rows) {
    lastRow = Math.max(lastRow, row.row);
    for (const c of row.cells) lastCol = Math.max(lastCol, c.col);
  }
  return {
    rows: [window.rows[0], Math.max(window.rows[0], Math.min(window.rows[1], lastRow))],
    cols: [window.cols[0], Math.max(window.cols[0], Math.min(window.cols[1], lastCol))],
  };
}
