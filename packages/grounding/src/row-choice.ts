import { lexLess } from './locate.ts';
import type { Field } from './item-fields.ts';
import { rowAt, rowSpan } from './rows.ts';
import type { SourceIndex } from './source-index.ts';

/** An item's row is chosen among the rows of its values' next this many occurrences each. */
const LOOKAHEAD = 64;
/** Rows an item's fields were most often seen on, weighed exactly for its row. */
const SHORTLIST = 32;
export /** Where the previous item of a list was found; the next is looked for from there on. */
interface Cursor {
  offset: number;
  /** Its row, -1 before the first item. */
  row: number;
}

/**
 * The row to put an item on: the one holding most of its fields, then most fields written
 * nowhere else, then one after the previous item's row rather than that row again, then the
 * first. The rows weighed are those of each field's next occurrences; a field is counted on
 * each exactly, also where its next occurrences do not reach (the model skipped rows). Rows
 * before the previous item are not considered unless nothing is written after it (the model
 * listed the items in another order than the source).
 */
export function chooseRow(
  index: SourceIndex,
  end: number,
  fields: Field[],
  cursor: Cursor,
): number | null {
  if (fields.length === 0) return null;
  const { rows } = index;
  const score = (from: number) => {
    const seen = fields.map((f) => {
      const ahead = f.occurrences.between(from, end, LOOKAHEAD);
      const onRows = new Set(ahead.map((o) => rowAt(rows, o.start)));
      // Past the last occurrence looked at, whether the field is on a row must be asked.
      const horizon =
        ahead.length < LOOKAHEAD ? Infinity : rowAt(rows, ahead[ahead.length - 1]!.start);
      return { f, onRows, horizon };
    });
    // The rows most fields were seen on, and those of fields written once, are weighed exactly:
    // an item of many fields, each written on many rows, costs a bounded number of look-ups.
    const seenOn = new Map<number, number>();
    for (const { onRows } of seen)
      for (const row of onRows) seenOn.set(row, (seenOn.get(row) ?? 0) + 1);
    const weighed = new Set(
      [...seenOn]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, SHORTLIST)
        .map(([row]) => row),
    );
    for (const { f, onRows } of seen)
      if (f.occurrences.unique) for (const row of onRows) weighed.add(row);
    const scores = new Map<number, [number, number]>();
    for (const row of weighed) {
      const [a, b] = rowSpan(rows, row, end);
      const s: [number, number] = [0, 0];
      for (const { f, onRows, horizon } of seen) {
        const on =
          onRows.has(row) ||
          (row > horizon && f.occurrences.between(Math.max(a, from), b, 1).length > 0);
        if (!on) continue;
        s[0] += 1;
        if (f.occurrences.unique) s[1] += 1;
      }
      scores.set(row, s);
    }
    return scores;
  };
  let scores = score(cursor.offset);
  if (scores.size === 0 && cursor.offset > 0) scores = score(0);
  let best: number | null = null;
  let bestKey: number[] = [];
  for (const [row, [count, unique]] of scores) {
    const key = [-count, -unique, row === cursor.row ? 1 : 0, row];
    if (best === null || lexLess(key, bestKey)) {
      best = row;
      bestKey = key;
    }
  }
  return best;
}
