import { useEffect } from 'preact/hooks';
import { parseCellRef } from '@xt/contract/cells';
import type { Place } from './place.ts';
import { around, SheetGrid, within } from './sheet-grid.tsx';

/** Rows and columns shown on either side of the cited cell: what a phone's width holds. */
const ROWS = 2;
const COLS = 2;

/**
 * A spreadsheet value in its place: the cited cell highlighted among the rows and columns around
 * it, under the sheet's header row, as the worker stored them. Without stored cells (removed
 * with the upload, or never stored), the cell's reference and its quote.
 */
export function CellStrip(props: {
  place: Extract<Place, { kind: 'cell' }>;
  name: string;
  onDrawn?: () => void;
}) {
  const { place, name, onDrawn } = props;
  useEffect(() => {
    onDrawn?.();
  }, [place.sheet, place.cell]);
  const at = parseCellRef(place.cell);
  return (
    <figure class="cell-strip" aria-label={`${name} in sheet ${place.sheet}, cell ${place.cell}`}>
      <figcaption class="cell-strip__where" data-testid="evidence-cell">
        Sheet <span class="cell-strip__sheet">{place.sheet}</span>, cell{' '}
        <span class="mono">{place.cell}</span>
      </figcaption>
      {place.cells && at ? (
        <SheetGrid
          sheet={place.cells}
          window={within(place.cells, around(at, ROWS, COLS))}
          marks={new Map([[place.cell, '']])}
          active={place.cell}
          label={`Cells around ${place.cell}`}
        />
      ) : (
        <p class="text-strip__lines">
          <mark class="mark--active">{place.quote}</mark>
        </p>
      )}
    </figure>
  );
}
