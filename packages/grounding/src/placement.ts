import { linesBeside } from './bands.ts';
import { Claims } from './claims.ts';
import { locatedAt, type Located } from './locations.ts';
import { lexLess, quoteEvidence, spanAlone, type Span } from './locate.ts';
import { occurrencesOf, type Occurrence, type Occurrences } from './occurrences.ts';
import { escapeToken, leaves } from './pointer.ts';
import { rowAt, rowSpan } from './rows.ts';
import type { SourceIndex } from './source-index.ts';

type Scalar = string | number | boolean;

/** An item's row is chosen among the rows of its values' next this many occurrences each. */
const LOOKAHEAD = 64;
/** Rows an item's fields were most often seen on, weighed exactly for its row. */
const SHORTLIST = 32;
/** Occurrences of one value looked at on one row. */
const ON_ROW = 64;
/** Nesting past which values are located one by one, so that no answer can exhaust the stack. */
const MAX_DEPTH = 64;

/** Where each leaf of an output was found, by pointer; absent for a leaf with no value. */
export type Placement = Map<string, Located | null>;

/** An empty string is no value, as null is: there is nothing to find, and nothing is missing. */
export function isNoValue(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

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

/** Where the previous item of a list was found; the next is looked for from there on. */
interface Cursor {
  offset: number;
  /** Its row, -1 before the first item. */
  row: number;
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

interface Field {
  pointer: string;
  value: Scalar;
  occurrences: Occurrences;
  /** The model's quote, the evidence of a value not written as such (a boolean, a paraphrase). */
  quote: string | null;
  /** Whether it says which row its item is on (see sharedValues). */
  votes: boolean;
}

/**
 * The scalar fields of an object item (nested objects included), and what is placed apart: the
 * lists inside it (after it, from where it was found), and objects nested past MAX_DEPTH.
 */
function fieldsOf(
  item: object,
  depth: number,
  visit: (relative: string, value: Scalar) => void,
  apart?: (relative: string, value: unknown) => void,
): void {
  const walkItem = (value: unknown, relative: string, level: number) => {
    if (isNoValue(value)) return;
    if (isScalar(value)) visit(relative, value);
    else if (Array.isArray(value) || level > MAX_DEPTH) apart?.(relative, value);
    else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value))
        walkItem(child, `${relative}/${escapeToken(key)}`, level + 1);
    }
  };
  walkItem(item, '', depth);
}

/**
 * Fields with the same value in every item of a list (a currency, a category) say nothing about
 * which row an item is on: one written once in a heading would otherwise pull every item there.
 */
function sharedValues(items: unknown[], depth: number): Set<string> {
  const shared = new Set<string>();
  if (items.length < 2) return shared;
  const seen = new Map<string, { value: Scalar; count: number; same: boolean }>();
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return shared;
    fieldsOf(item, depth, (relative, value) => {
      const entry = seen.get(relative);
      if (!entry) seen.set(relative, { value, count: 1, same: true });
      else {
        entry.count += 1;
        if (entry.value !== value) entry.same = false;
      }
    });
  }
  for (const [relative, entry] of seen)
    if (entry.same && entry.count === items.length) shared.add(relative);
  return shared;
}

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
      ctx,
      written.filter((f) => f.votes),
      cursor,
    ) ?? chooseRow(ctx, written, cursor);
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
 * The row to put an item on: the one holding most of its fields, then most fields written
 * nowhere else, then one after the previous item's row rather than that row again, then the
 * first. The rows weighed are those of each field's next occurrences; a field is counted on
 * each exactly, also where its next occurrences do not reach (the model skipped rows). Rows
 * before the previous item are not considered unless nothing is written after it (the model
 * listed the items in another order than the source).
 */
function chooseRow(ctx: Context, fields: Field[], cursor: Cursor): number | null {
  if (fields.length === 0) return null;
  const { rows } = ctx.index;
  const score = (from: number) => {
    const seen = fields.map((f) => {
      const ahead = f.occurrences.between(from, ctx.end, LOOKAHEAD);
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
      const [a, b] = rowSpan(rows, row, ctx.end);
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
