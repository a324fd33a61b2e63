import { linesBeside } from './bands.ts';
import { Claims } from './claims.ts';
import { locatedAt, type Located } from './locations.ts';
import { lexLess, quoteEvidence, spanAlone, type Span } from './locate.ts';
import {
  fieldsOf,
  isNoValue,
  isScalar,
  MAX_DEPTH,
  sharedValues,
  type Field,
  type Scalar,
} from './item-fields.ts';
import { occurrencesOf, type Occurrence } from './occurrences.ts';
import { escapeToken, leaves } from './pointer.ts';
import { chooseRow, type Cursor } from './row-choice.ts';
import { rowAt, rowSpan } from './rows.ts';
import type { SourceIndex } from './source-index.ts';

/** Occurrences of one value looked at on one row. */
const ON_ROW = 64;

/** Where each leaf of an output was found, by pointer; absent for a leaf with no value. */
export type Placement = Map<string, Located | null>;

interface Context {
  index: SourceIndex;
  quotes: ReadonlyMap<string, string> | null;
  out: Placement;
  /** Past the flat text's end: `[from, end)` covers the rest of the source. */
  end: number;
  /**
   * What the items of each list took, by the list's place in the answer's shape (indices as
   * `*`): no row's value is cited on another row's (claims.ts). Two lists may cite one place.
   */
  claims: Map<string, Claims>;
}

/** A value of an item not written on the item's row, cited once every item has its row. */
interface OffRow {
  f: Field;
  owner: string;
  claims: Claims;
  row: number;
  cursor: Cursor;
}

/**
 * Locates every leaf of an output in the source (docs/citations.md, "Which occurrence"). A value
 * on its own is found as `locateAlone` finds it. The items of an array are found in document
 * order, each no earlier than the one before it, and the values of one item together: the item
 * is put on the row (a line, a band of a page, a sheet's row) where most of its values are
 * written, a value written once in the whole source (a row's reference) deciding between rows
 * as good otherwise, and each value is cited on that row when it is written there. A statement
 * whose rows repeat one amount is so cited row by row, not eight times on the first.
 */
export function placeOutput(
  index: SourceIndex,
  output: unknown,
  quotes: ReadonlyMap<string, string> | null,
): Placement {
  const ctx: Context = {
    index,
    quotes,
    out: new Map(),
    end: index.flat.length + 1,
    claims: new Map(),
  };
  walk(ctx, output, '', 0);
  return ctx.out;
}

function quoteOf(ctx: Context, pointer: string): string | null {
  return ctx.quotes?.get(pointer) ?? null;
}

function cite(ctx: Context, pointer: string, span: Span | null): void {
  ctx.out.set(pointer, span && locatedAt(ctx.index, span.start, span.end, span.how));
}

function walk(ctx: Context, value: unknown, pointer: string, depth: number): void {
  if (isNoValue(value)) return;
  if (isScalar(value)) cite(ctx, pointer, spanAlone(ctx.index, value, quoteOf(ctx, pointer)));
  else if (depth > MAX_DEPTH) alone(ctx, value, pointer);
  else if (Array.isArray(value)) placeList(ctx, value, pointer, 0, depth + 1);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      walk(ctx, child, `${pointer}/${escapeToken(key)}`, depth + 1);
  }
}

/** Every leaf under `value`, each on its own (iteratively: any depth). */
function alone(ctx: Context, value: unknown, pointer: string): void {
  for (const leaf of leaves(value)) {
    if (isNoValue(leaf.value)) continue;
    const at = pointer + leaf.pointer;
    cite(ctx, at, spanAlone(ctx.index, leaf.value, quoteOf(ctx, at)));
  }
}

/** The items of a list, in document order from flat offset `floor`. Returns the last cursor. */
function placeList(
  ctx: Context,
  items: unknown[],
  pointer: string,
  floor: number,
  depth: number,
  scope = pointer,
): Cursor | null {
  let claims = ctx.claims.get(scope);
  if (!claims) ctx.claims.set(scope, (claims = new Claims(ctx.index.rows)));
  const list: ItemList = { scope: `${scope}/*`, claims, shared: sharedValues(items, depth) };
  let cursor: Cursor = { offset: floor, row: -1 };
  let moved = false;
  const offRow: OffRow[] = [];
  items.forEach((item, k) => {
    const at = `${pointer}/${k}`;
    if (isNoValue(item)) return;
    let next: Cursor | null = null;
    if (isScalar(item)) next = placeScalar(ctx, item, at, cursor, list.claims);
    else if (depth > MAX_DEPTH) alone(ctx, item, at);
    else if (Array.isArray(item))
      next = placeList(ctx, item, at, cursor.offset, depth + 1, list.scope);
    else if (item !== null && typeof item === 'object')
      next = placeItem(ctx, item, at, cursor, list, depth, offRow);
    if (next) {
      cursor = next;
      moved = true;
    }
  });
  // Only now, with every item's row and on-row values known, can a value read elsewhere be
  // kept off them.
  for (const o of offRow) {
    const span = nearest(ctx, o);
    // A value every item shares (a currency in a heading) is the list's, not a row's: each item
    // may cite it there. Any other is its item's alone.
    if (span && o.f.votes) o.claims.take(o.owner, span);
    cite(ctx, o.f.pointer, span);
  }
  return moved ? cursor : null;
}

/** The list an item is in: its shape's place, what its items took, what they all share. */
interface ItemList {
  /** The items' place in the answer's shape, indices as `*`. */
  scope: string;
  claims: Claims;
  shared: Set<string>;
}

/** One scalar item: its first occurrence after the previous item's, else wherever it is. */
function placeScalar(
  ctx: Context,
  value: Scalar,
  pointer: string,
  cursor: Cursor,
  claims: Claims,
): Cursor | null {
  const { index } = ctx;
  const ahead = occurrencesOf(index, value)
    .between(cursor.offset, ctx.end, ON_ROW)
    .filter((o) => claims.free(pointer, o, false));
  let span: Span | null = null;
  if (ahead.length > 0) {
    // The first row with an occurrence; on it, the strongest reading, then the first.
    const row = rowAt(index.rows, ahead[0]!.start);
    for (const o of ahead) {
      if (rowAt(index.rows, o.start) !== row) break;
      if (!span || lexLess(strength(o), strength(span))) span = o;
    }
  } else
    span = spanAlone(index, value, quoteOf(ctx, pointer), cursor.offset, (s) =>
      claims.free(pointer, s, true),
    );
  if (span) claims.take(pointer, span);
  cite(ctx, pointer, span);
  return span && { offset: span.end, row: rowAt(index.rows, span.start) };
}

const strength = (o: Span & { tier?: number }) => [o.tier ?? 0, o.how === 'exact' ? 0 : 1];

/** One object item: its row, then each of its values on that row or as near it as written. */
function placeItem(
  ctx: Context,
  item: object,
  pointer: string,
  cursor: Cursor,
  list: ItemList,
  depth: number,
  offRow: OffRow[],
): Cursor | null {
  const { index } = ctx;
  const { claims, shared } = list;
  const fields: Field[] = [];
  const lists: [string, unknown[]][] = [];
  fieldsOf(
    item,
    depth,
    (relative, value) => {
      const at = pointer + relative;
      fields.push({
        pointer: at,
        value,
        occurrences: occurrencesOf(index, value),
        quote: quoteOf(ctx, at),
        votes: !shared.has(relative),
      });
    },
    (relative, value) => {
      if (Array.isArray(value)) lists.push([relative, value]);
      else alone(ctx, value, pointer + relative);
    },
  );
  const written = fields.filter((f) => f.occurrences.any);
  const row =
    chooseRow(
      index,
      ctx.end,
      written.filter((f) => f.votes),
      cursor,
    ) ?? chooseRow(index, ctx.end, written, cursor);
  // Where the quotes of values not written as such are looked for first: the item's row, or,
  // when no value of the item is written, the row after the previous item's.
  const quotesFrom =
    row !== null
      ? rowSpan(index.rows, row, ctx.end)[0]
      : cursor.row >= 0
        ? rowSpan(index.rows, cursor.row + 1, ctx.end)[0]
        : cursor.offset;
  if (row !== null) claims.takeRow(pointer, row);
  let start =
    row === null ? Infinity : assign(ctx, written, row, cursor, { owner: pointer, claims, offRow });
  for (const f of fields) {
    if (f.occurrences.any) continue;
    let found = f.quote ? quoteEvidence(index, f.value, f.quote, quotesFrom) : null;
    const onRow = found !== null && row !== null && rowAt(index.rows, found.start) === row;
    if (found && !claims.free(pointer, found, !onRow)) found = null;
    if (found && f.votes) claims.take(pointer, found);
    cite(ctx, f.pointer, found && { ...found, how: 'quote' });
    if (found && row === null) start = Math.min(start, found.start);
  }
  const next: Cursor | null = Number.isFinite(start)
    ? { offset: start, row: row ?? rowAt(index.rows, start) }
    : null;
  const floor = next?.offset ?? cursor.offset;
  for (const [relative, inner] of lists)
    placeList(ctx, inner, pointer + relative, floor, depth + 1, list.scope + relative);
  return next;
}

/**
 * Cites each field on the item's row where it is written there, a place no sibling took before
 * another (a unit price and an amount both 155.47: each its own cell, in the item's order), and
 * no other item did; a field not written there is left in `offRow` for `nearest`. Returns where
 * the item starts on its row.
 */
function assign(
  ctx: Context,
  fields: Field[],
  row: number,
  cursor: Cursor,
  { owner, claims, offRow }: { owner: string; claims: Claims; offRow: OffRow[] },
): number {
  const { index } = ctx;
  const [rowFrom, rowTo] = rowSpan(index.rows, row, ctx.end);
  // On the previous item's own row, only what follows it.
  const from = row === cursor.row ? Math.max(rowFrom, cursor.offset) : rowFrom;
  const taken = new Set<number>();
  let start = Infinity;
  let beside: [number, number][] | undefined;
  const best = (candidates: Occurrence[]) => {
    let span: Span | null = null;
    let bestKey: number[] = [];
    for (const o of candidates) {
      if (!claims.free(owner, o, false)) continue;
      const key = [o.tier, taken.has(o.start) ? 1 : 0, o.how === 'exact' ? 0 : 1, o.start];
      if (!span || lexLess(key, bestKey)) {
        span = o;
        bestKey = key;
      }
    }
    return span;
  };
  for (const f of fields) {
    let span = best(f.occurrences.between(from, rowTo, ON_ROW));
    if (!span) {
      // On a page, the row's other cells may be lines read apart from it (columns read as
      // blocks): beside it, they are still its row.
      beside ??= linesBeside(index, rowFrom, rowTo);
      span = best(beside.flatMap(([a, b]) => f.occurrences.between(a, b, ON_ROW)));
    }
    if (!span) {
      offRow.push({ f, owner, claims, row, cursor });
      continue;
    }
    taken.add(span.start);
    claims.take(owner, span);
    if (span.start >= rowFrom && span.start < rowTo) start = Math.min(start, span.start);
    cite(ctx, f.pointer, span);
  }
  return Number.isFinite(start) ? start : rowFrom;
}

/**
 * A field not written on its item's row (a block of lines per item, or a value the model took
 * from elsewhere): its occurrence nearest that row, not before the previous item where it can
 * be; one before it only when there is no other. Never one on another item's row or where
 * another item's value was cited (claims.ts): the value is then not found.
 */
function nearest(ctx: Context, { f, owner, claims, row, cursor }: OffRow): Span | null {
  const { index } = ctx;
  const [rowFrom, rowTo] = rowSpan(index.rows, row, ctx.end);
  const free = (from: number, to: number, backwards = false) =>
    f.occurrences.between(from, to, ON_ROW, backwards).find((o) => claims.free(owner, o, true));
  const after = free(rowTo, ctx.end);
  const before = free(cursor.offset, rowFrom, true);
  if (after && before) {
    const down = rowAt(index.rows, after.start) - row;
    const up = row - rowAt(index.rows, before.start);
    return up < down ? before : after;
  }
  return after ?? before ?? free(0, cursor.offset, true) ?? null;
}
