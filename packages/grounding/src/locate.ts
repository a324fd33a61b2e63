import type { GroundingSource } from '@xt/contract';
import { locatedAt, type How, type Located } from './locations.ts';
import { occurrencesOf, type Occurrence } from './occurrences.ts';
import { indexSource, isSourceIndex, type SourceIndex } from './source-index.ts';
import { findQuote, supports, type QuoteSpan } from './quote.ts';

/** Occurrences one value is chosen among; more say nothing more about where it is. */
const MAX_CANDIDATES = 1000;

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
  return locateAlone(index, value, quote ?? null);
}

/** `[start, end)` of the flat text, and on what evidence. */
export interface Span {
  start: number;
  end: number;
  how: How;
}

/**
 * A value on its own (not one of an array item's): of its occurrences, the one nearest the
 * model's quote, else the first as written. `after`: where the quote is looked for first.
 */
export function locateAlone(
  index: SourceIndex,
  value: string | number | boolean,
  quote: string | null,
  after = 0,
): Located | null {
  const span = spanAlone(index, value, quote, after);
  return span && locatedAt(index, span.start, span.end, span.how);
}

export function spanAlone(
  index: SourceIndex,
  value: string | number | boolean,
  quote: string | null,
  after = 0,
  /** Where the value may be cited (not where another array item's value was). */
  usable: (span: Span) => boolean = () => true,
): Span | null {
  const { starts, ends } = index.norm;
  const candidates = occurrencesOf(index, value)
    .between(0, index.flat.length + 1, MAX_CANDIDATES)
    .filter(usable);
  // The quote is looked for only where it can change the answer: to choose among occurrences,
  // or as the evidence itself.
  const found = quote && candidates.length !== 1 ? findQuote(index, quote, after) : null;
  if (candidates.length > 0) {
    const near: [number, number] | null = found
      ? [starts[found.start]!, ends[found.end - 1]!]
      : null;
    return choose(candidates, near);
  }
  const evidence = found && evidenceAt(index, found, value);
  const span: Span | null = evidence ? { ...evidence, how: 'quote' } : null;
  return span && usable(span) ? span : null;
}

/**
 * A value the source does not spell out, grounded by the model's quote where the service finds
 * it and reads the value there: `[start, end)` of the flat text, the value's own place inside
 * the quote when it is read there, else the whole quote.
 */
export function quoteEvidence(
  index: SourceIndex,
  value: string | number | boolean,
  quote: string,
  after = 0,
): { start: number; end: number } | null {
  const found = findQuote(index, quote, after);
  return found && evidenceAt(index, found, value);
}

function evidenceAt(
  index: SourceIndex,
  found: QuoteSpan,
  value: string | number | boolean,
): { start: number; end: number } | null {
  const support = supports(index, found, value);
  if (support === false) return null;
  const [from, to] = support === true ? [found.start, found.end] : support;
  return { start: index.norm.starts[from]!, end: index.norm.ends[to - 1]! };
}

/**
 * The occurrence to cite: the value as written before its magnitude alone; then the one nearest
 * the model's quote when that was found, else verbatim before normalised, then the first.
 */
function choose(candidates: Occurrence[], near: [number, number] | null): Occurrence {
  let best = candidates[0]!;
  const key = (c: Occurrence): number[] =>
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

export function lexLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]!;
  }
  return false;
}

function distance(c: Occurrence, [qs, qe]: [number, number]): number {
  if (c.end <= qs) return qs - c.end;
  if (c.start >= qe) return c.start - qe;
  return 0;
}
