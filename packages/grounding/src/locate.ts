import type { GroundingSource } from '@xt/contract';
import { locatedAt, type How, type Located } from './locations.ts';
import { readDateValue } from './dates.ts';
import { magnitudeOf, readNumberValue } from './numbers.ts';
import { indexSource, isSourceIndex, type SourceIndex } from './source-index.ts';
import { findQuote, supports } from './quote.ts';
import { findNormalised } from './text-search.ts';
import { normalise } from './text/normalise.ts';

/** Distinct values remembered per index; past this, values are searched afresh each time. */
const MEMO_LIMIT = 50_000;

interface Candidate {
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
 * Finds a leaf value in the source as read. Evidence, in order: the value verbatim; the value
 * normalised (case, whitespace, hyphenation, number formats); the model's own quote, when the
 * service finds it in the source. `quote`: the model's short verbatim quote for the value.
 * Booleans are grounded only through a quote: `true` is almost never written as such.
 */
export function locateValue(
  value: string | number | boolean,
  source: GroundingSource | SourceIndex,
  quote?: string | null,
): Located | null {
  const index = isSourceIndex(source) ? source : indexSource(source);
  const { starts, ends } = index.norm;
  const candidates = candidatesFor(index, value);
  // The quote is looked for only where it can change the answer: to choose among occurrences,
  // or as the evidence itself.
  const found = quote && candidates.length !== 1 ? findQuote(index, quote) : null;
  if (candidates.length > 0) {
    const near: [number, number] | null = found
      ? [starts[found.start]!, ends[found.end - 1]!]
      : null;
    const best = choose(candidates, near);
    return locatedAt(index, best.start, best.end, best.how);
  }
  if (!found) return null;
  const support = supports(index, found, value);
  if (support === false) return null;
  // The value where it stands inside the quote, when it is read there; else the whole quote.
  const [from, to] = support === true ? [found.start, found.end] : support;
  return locatedAt(index, starts[from]!, ends[to - 1]!, 'quote');
}

/** The occurrences of a value, computed once per index: a table repeats values row after row. */
function candidatesFor(index: SourceIndex, value: string | number | boolean): Candidate[] {
  const key = `${typeof value}:${String(value)}`;
  let found = index.memo.get(key) as Candidate[] | undefined;
  if (!found) {
    found = searchCandidates(index, value);
    if (index.memo.size < MEMO_LIMIT) index.memo.set(key, found);
  }
  return found;
}

function searchCandidates(index: SourceIndex, value: string | number | boolean): Candidate[] {
  if (typeof value === 'boolean') return [];
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return [];
    return numberCandidates(index, [magnitudeOf(value)], value < 0, String(value));
  }
  const text = textCandidates(index, value);
  const number = readNumberValue(value);
  if (number) {
    // A string that is one number is found where a number is written (`"12"` is not the cents
    // of `1,234.12`), or as text wrapped around such a number (`"$1,234.50"` as written).
    const numbers = numberCandidates(index, number.magnitudes, number.negative, value);
    const around = text.filter((t) => numbers.some((n) => n.start >= t.start && n.end <= t.end));
    return around.length > 0 ? around : numbers;
  }
  if (text.length > 0) return text;
  const date = readDateValue(value);
  return date ? dateCandidates(index, date) : [];
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

function textCandidates(index: SourceIndex, value: string): Candidate[] {
  const { starts, ends } = index.norm;
  const needle = normalise(value).text;
  let found = findNormalised(index, needle);
  if (found.length === 0) {
    const trimmed = trimPunctuation(needle);
    if (trimmed.length > 0 && trimmed !== needle) found = findNormalised(index, trimmed);
  }
  return found.map(([s, e]) => {
    const start = starts[s]!;
    const end = ends[e - 1]!;
    const how = index.flat.slice(start, end) === value ? 'exact' : 'normalised';
    return { start, end, how, tier: 0 };
  });
}

function numberCandidates(
  index: SourceIndex,
  magnitudes: string[],
  negative: boolean,
  written: string,
): Candidate[] {
  const found: Candidate[] = [];
  for (const magnitude of magnitudes) {
    for (const o of index.numbers.get(magnitude) ?? []) {
      const signed = o.negative === negative || magnitude === '0';
      const exact = signed && !o.percent && index.flat.slice(o.start, o.end) === written;
      found.push({
        start: o.start,
        end: o.end,
        how: exact ? 'exact' : 'normalised',
        tier: signed ? 0 : 1,
      });
    }
  }
  return found;
}

function dateCandidates(index: SourceIndex, readings: string[]): Candidate[] {
  return readings.flatMap((reading) =>
    (index.dates.get(reading) ?? []).map((o): Candidate => ({
      start: o.start,
      end: o.end,
      how: 'normalised',
      tier: o.ambiguous ? 1 : 0,
    })),
  );
}

/**
 * The occurrence to cite: the value as written before its magnitude alone; then the one nearest
 * the model's quote when that was found, else verbatim before normalised, then the first.
 */
function choose(candidates: Candidate[], near: [number, number] | null): Candidate {
  let best = candidates[0]!;
  const key = (c: Candidate): number[] =>
    near ? [c.tier, distance(c, near), c.start] : [c.tier, c.how === 'exact' ? 0 : 1, c.start];
  let bestKey = key(best);
  for (const candidate of candidates) {
    const k = key(candidate);
    if (lexLess(k, bestKey)) {
      best = candidate;
      bestKey = k;
    }
  }
  return best;
}

function lexLess(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]!;
  }
  return false;
}

function distance(c: Candidate, [qs, qe]: [number, number]): number {
  if (c.end <= qs) return qs - c.end;
  if (c.start >= qe) return c.start - qe;
  return 0;
}
