import { rowAt, type RowStarts } from './rows.ts';

/** `[start, end)` of the flat text. */
interface Place {
  start: number;
  end: number;
}

/** Quote lines a claim or a candidate is looked up on; a value spans one or two. */
const MAX_ROWS_SPANNED = 8;

/**
 * What array items have taken of the source, so that "found" means the value is there: a place
 * where one item's value was cited on that item's own row never grounds the value of another
 * item, and no value of another item is cited on a row an item was put on. A scan whose OCR read
 * a quantity 11 as 8 would otherwise cite the 8 on the row above's own quantity cell.
 *
 * Items are told apart by pointer: an item and the items of lists inside it are one (a nested
 * list's rows may share its parent's row), and a value outside every list (`''`) is nobody's.
 */
export class Claims {
  private readonly byRow = new Map<number, { place: Place; owner: string }[]>();
  private readonly rowOwners = new Map<number, string[]>();

  constructor(private readonly rows: RowStarts) {}

  /** Item `owner` was put on `row`. */
  takeRow(owner: string, row: number): void {
    const owners = this.rowOwners.get(row);
    if (!owners) this.rowOwners.set(row, [owner]);
    else if (!owners.includes(owner)) owners.push(owner);
  }

  /** Item `owner` cited one of its values at `place`, on its own row. */
  take(owner: string, place: Place): void {
    for (const row of this.rowsOf(place)) {
      const taken = this.byRow.get(row);
      if (taken) taken.push({ place, owner });
      else this.byRow.set(row, [{ place, owner }]);
    }
  }

  /**
   * Whether item `owner` may cite a value at `place`: nothing another item cited overlaps it,
   * and, for a value read off its item's row (`offRow`), its row is no other item's.
   */
  free(owner: string, place: Place, offRow: boolean): boolean {
    for (const row of this.rowsOf(place)) {
      if (offRow) {
        const owners = this.rowOwners.get(row);
        if (owners && !owners.some((o) => related(o, owner))) return false;
      }
      for (const claim of this.byRow.get(row) ?? []) {
        if (related(claim.owner, owner)) continue;
        if (claim.place.start < place.end && place.start < claim.place.end) return false;
      }
    }
    return true;
  }

  private rowsOf(place: Place): number[] {
    const first = rowAt(this.rows, place.start);
    const last = Math.min(
      rowAt(this.rows, Math.max(place.start, place.end - 1)),
      first + MAX_ROWS_SPANNED,
    );
    const out: number[] = [];
    for (let row = first; row <= last; row++) out.push(row);
    return out;
  }
}

/** One pointer is the other or inside it: the same item, or a list item within it. */
function related(a: string, b: string): boolean {
  return a === b || a === '' || b === '' || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}
