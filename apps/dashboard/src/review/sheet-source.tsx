import { parseCellRef } from '@xt/contract/cells';
import type { GroundingSheet } from '@xt/contract';
import type { ReviewField } from './fields.ts';
import { around, SheetGrid, within } from './sheet-grid.tsx';

/** Rows and columns shown on either side of the selected cell in the pane beside the list. */
const ROWS = 8;
const COLS = 3;

/**
 * A spreadsheet beside the fields: the sheet around the selected field's cell (or the first
 * cited one), every cited cell in view marked and a click on one selecting its field. Only the
 * cells the worker stored are shown: those near cited cells, and the header rows.
 */
export function SheetSource(props: {
  sheets: GroundingSheet[] | undefined;
  fields: ReviewField[];
  selected: string | undefined;
  onSelect: (pointer: string) => void;
}) {
  const cited = props.fields.filter((f) => f.citation?.grounded && f.citation.cell);
  const focus =
    cited.find((f) => f.pointer === props.selected) ?? (props.selected ? undefined : cited[0]);
  if (!focus)
    return (
      <p class="muted">
        {props.selected ? 'This value was not found in a cell.' : 'No value was found in a cell.'}
      </p>
    );
  const { sheet: name, cell } = focus.citation!;
  const sheet = props.sheets?.find((s) => s.name === name);
  const at = parseCellRef(cell!);
  if (!sheet || !at)
    return <p class="muted">The sheet's cells are not stored (they go with the uploaded file).</p>;
  const marks = new Map<string, string>();
  for (const f of cited) if (f.citation!.sheet === name) marks.set(f.citation!.cell!, f.pointer);
  return (
    <figure class="sheet-source">
      <figcaption class="cell-strip__where">
        Sheet <span class="cell-strip__sheet">{name}</span>
        {sheet.hidden ? ' (hidden)' : ''}, around <span class="mono">{cell}</span>
      </figcaption>
      <SheetGrid
        sheet={sheet}
        window={within(sheet, around(at, ROWS, COLS))}
        marks={marks}
        active={props.selected === focus.pointer ? cell : undefined}
        onSelect={props.onSelect}
        label={`Sheet ${name}`}
      />
    </figure>
  );
}
