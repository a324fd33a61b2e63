import type { How } from './locations.ts';
import { readDateValue, type DateOccurrence } from './dates.ts';
import {
  insideLongerToken,
  magnitudeOf,
  readNumberValue,
  type NumberOccurrence,
} from './numbers.ts';
import type { SourceIndex } from './source-index.ts';
import { lowerBound } from './sorted.ts';
import { matchesBetween, textNeedle, type TextNeedle } from './text-search.ts';
import { normalise } from './text/normalise.ts';

/** Distinct values remembered per index; past this, values are prepared afresh each time. */
const MEMO_LIMIT = 50_000;

/** One place a value is written: `[start, end)` of the flat text. */
export interface Occurrence {
  start: number;
  end: number;
  how: Exclude<How, 'quote'>;
  /**
   * 0: the value as written; 1: a weaker reading (a number's magnitude only, its sign differing
   * or not written; a date whose day and month could be either way round).
   */
  tier: number;
}

/**
 * Where one value is written in the source. Asked for a part of the source at a time (a row,
 * what follows the previous array item), so that a value repeated on every row of a long table
 * costs what is looked at, and none of its occurrences is out of reach.
 */
export interface Occurrences {
  /** Those starting in `[from, to)` of the flat text, in order (`backwards`: from the last). */
  between(from: number, to: number, limit: number, backwards?: boolean): Occurrence[];
  /** Whether the value is written anywhere. */
  readonly any: boolean;
  /** Whether it is written exactly once: a sibling that says which row its item is on. */
  readonly unique: boolean;
}

const HAS_LETTER = /\p{L}/u;

const NONE: Occurrences = { between: () => [], any: false, unique: false };

/** The occurrences of a value, prepared once per index: a table repeats values row after row. */
export function occurrencesOf(index: SourceIndex, value: string | number | boolean): Occurrences {
  const key = `${typeof value}:${String(value)}`;
  let found = index.memo.get(key) as Occurrences | undefined;
  if (!found) {
    found = prepare(index, value);
    if (index.memo.size < MEMO_LIMIT) index.memo.set(key, found);
  }
  return found;
}

type Between = Occurrences['between'];

function prepare(index: SourceIndex, value: string | number | boolean): Occurrences {
  if (typeof value === 'boolean') return NONE;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return NONE;
    return finish(index, numbersBetween(index, [magnitudeOf(value)], value < 0, String(value)));
  }
  const text = textBetween(index, value);
  const number = readNumberValue(value);
  if (number) {
    // A string that is one number is found where a number is written (`"12"` is not the cents
    // of `1,234.12`), or as text wrapped around such a number (`"$1,234.50"` as written). One
    // with letters that is written as it is, but not around a number, is an identifier
    // (`"INV-7"`, `"ORD-0001"` read as a currency code and -7, -1), found as it is written and
    // never as the bare number: `"ORD-0001"` is not the quantity 1 beside it.
    const numbers = numbersBetween(index, number.magnitudes, number.negative, value);
    const around = textBetween(index, value, (s, e) => numbers(s, e, 8).some((n) => n.end <= e));
    if (around) return finish(index, around);
    if (text && HAS_LETTER.test(value)) return finish(index, text);
    return numbers(0, index.flat.length + 1, 1).length > 0 ? finish(index, numbers) : NONE;
  }
  if (text) return finish(index, text);
  const date = readDateValue(value);
  return date ? finish(index, datesBetween(index, date)) : NONE;
}

function finish(index: SourceIndex, between: Between): Occurrences {
  const first = between(0, index.flat.length + 1, 2);
  return first.length === 0 ? NONE : { between, any: true, unique: first.length === 1 };
}

// Punctuation a model adds or drops at a value's ends (`Acme GmbH.` for `Acme GmbH,`).
const EDGE_PUNCTUATION = new Set([...'.,;:!?\'"()[]{}*']);

function trimPunctuation(text: string): string {
  let a = 0;
  let b = text.length;
  while (a < b && (EDGE_PUNCTUATION.has(text[a]!) || text[a] === ' ')) a++;
  while (b > a && (EDGE_PUNCTUATION.has(text[b - 1]!) || text[b - 1] === ' ')) b--;
  return text.slice(a, b);
}

/**
 * The value as text, normalised; with the punctuation at its ends trimmed when it is not found
 * with it. Never inside a longer token at a digit (`"02"` is not in `2026-02-08`). `also`: a
 * further condition on each match (`[start, end)` of the flat text).
 */
function textBetween(
  index: SourceIndex,
  value: string,
  also: (start: number, end: number) => boolean = () => true,
): Between | null {
  const needle = normalise(value).text;
  const whole = 0;
  const end = index.norm.text.length;
  const outside = (s: number, e: number) => {
    const start = index.norm.starts[s]!;
    const stop = index.norm.ends[e - 1]!;
    return !insideLongerToken(index.flat, start, stop) && also(start, stop);
  };
  const usable = (n: TextNeedle | null) =>
    n && matchesBetween(index, n, whole, end, 1, false, outside).length > 0 ? n : null;
  let prepared = usable(textNeedle(index, needle));
  if (!prepared) {
    const trimmed = trimPunctuation(needle);
    if (trimmed.length > 0 && trimmed !== needle) prepared = usable(textNeedle(index, trimmed));
  }
  if (!prepared) return null;
  const found = prepared;
  const { starts, ends } = index.norm;
  return (from, to, limit, backwards) => {
    // Flat offsets to normalised ones: the first normalised character from each.
    const nFrom = lowerBound(starts, from);
    const nTo = lowerBound(starts, to);
    return matchesBetween(index, found, nFrom, nTo, limit, backwards, outside).map(([s, e]) => {
      const start = starts[s]!;
      const stop = ends[e - 1]!;
      const how = index.flat.slice(start, stop) === value ? 'exact' : 'normalised';
      return { start, end: stop, how, tier: 0 };
    });
  };
}

interface Positioned {
  start: number;
  end: number;
}

/** Those of a list sorted by start that start in `[from, to)`, at most `limit`. */
function slice<T extends Positioned>(
  list: readonly T[],
  from: number,
  to: number,
  limit: number,
  backwards: boolean,
): T[] {
  const startOf = (k: number) => list[k]!.start;
  const lo = firstAtLeast(list.length, startOf, from);
  const hi = firstAtLeast(list.length, startOf, to);
  if (!backwards) return list.slice(lo, Math.min(hi, lo + limit));
  return list.slice(Math.max(lo, hi - limit), hi).reverse();
}

function firstAtLeast(length: number, at: (k: number) => number, value: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Merges the occurrences of several readings (two magnitudes, two dates): in order, one per
 * place, the strongest reading kept.
 */
function merged(lists: Occurrence[][], limit: number, backwards: boolean): Occurrence[] {
  if (lists.length === 1) return lists[0]!;
  const sign = backwards ? -1 : 1;
  const all = lists.flat().sort((a, b) => sign * (a.start - b.start) || a.end - b.end);
  const out: Occurrence[] = [];
  for (const o of all) {
    const last = out[out.length - 1];
    if (last && last.start === o.start && last.end === o.end) {
      if (o.tier < last.tier || (o.tier === last.tier && o.how === 'exact'))
        out[out.length - 1] = o;
    } else {
      if (out.length >= limit) break;
      out.push(o);
    }
  }
  return out;
}

function numbersBetween(
  index: SourceIndex,
  magnitudes: string[],
  negative: boolean,
  written: string,
): Between {
  const lists = magnitudes
    .map((m) => [m, index.numbers.get(m)] as const)
    .filter((e): e is readonly [string, NumberOccurrence[]] => e[1] !== undefined);
  return (from, to, limit, backwards = false) =>
    merged(
      lists.map(([magnitude, list]) =>
        slice(list, from, to, limit, backwards).map((o): Occurrence => {
          const signed = o.negative === negative || magnitude === '0';
          const exact = signed && !o.percent && index.flat.slice(o.start, o.end) === written;
          return {
            start: o.start,
            end: o.end,
            how: exact ? 'exact' : 'normalised',
            tier: signed ? 0 : 1,
          };
        }),
      ),
      limit,
      backwards,
    );
}

function datesBetween(index: SourceIndex, readings: string[]): Between {
  const lists = readings
    .map((r) => index.dates.get(r))
    .filter((l): l is DateOccurrence[] => l !== undefined);
  return (from, to, limit, backwards = false) =>
    merged(
      lists.map((list) =>
        slice(list, from, to, limit, backwards).map((o): Occurrence => ({
          start: o.start,
          end: o.end,
          how: 'normalised',
          tier: o.ambiguous ? 1 : 0,
        })),
      ),
      limit,
      backwards,
    );
}
