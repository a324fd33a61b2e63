import { Fragment, type ComponentChildren } from 'preact';

export interface Column<T> {
  /** The header, and on phones (where each row becomes a card) the label beside the value. */
  label: string;
  /**
   * `wrap`: free text (names, sources), cut with an ellipsis on wide screens and wrapped on
   * phones; `actions`: buttons at the row's end, with a header only screen readers hear;
   * `number`: right-aligned under a right-aligned header, so digits line up.
   */
  kind?: 'wrap' | 'actions' | 'number';
  /**
   * A class for this column's cells, for a page that lays its cards out its own way; per row
   * when it depends on the row (`cell--empty`: a card leaves the cell out on phones).
   */
  cellClass?: string | ((row: T) => string | undefined);
  cell: (row: T) => ComponentChildren;
}

/**
 * The list pages' table: a table on wide screens, one card per row on narrow ones. Each value
 * sits in one element so the phone layout can put it opposite its label as a single piece.
 */
export function DataTable<T>(props: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  rowClass?: (row: T) => string | undefined;
  /** More about a row (what selecting it opens), in a row of its own under it, across all columns. */
  detail?: (row: T) => ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class="table table--cards">
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.label} scope="col" class={c.kind === 'number' ? 'cell--num' : undefined}>
                {c.kind === 'actions' ? <span class="visually-hidden">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => {
            const detail = props.detail?.(row);
            return (
              <Fragment key={props.rowKey(row)}>
                <tr class={props.rowClass?.(row)}>
                  {props.columns.map((c) =>
                    c.kind === 'actions' ? (
                      <td key={c.label} class="cell--actions">
                        {c.cell(row)}
                      </td>
                    ) : (
                      <td
                        key={c.label}
                        data-label={c.label}
                        class={
                          [
                            c.kind === 'wrap' && 'cell--wrap',
                            c.kind === 'number' && 'cell--num',
                            typeof c.cellClass === 'function' ? c.cellClass(row) : c.cellClass,
                          ]
                            .filter(Boolean)
                            .join(' ') || undefined
                        }
                      >
                        <span class="cell__value">{c.cell(row)}</span>
                      </td>
                    ),
                  )}
                </tr>
                {detail && (
                  <tr class="row--detail">
                    <td colSpan={props.columns.length}>{detail}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
