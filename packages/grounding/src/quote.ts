import { allowedEdits, findApproximately, sellers } from './approximate.ts';
import { readDateValue, scanDates } from './dates.ts';
import { magnitudeOf, readNumberValue, scanNumbers } from './numbers.ts';
import type { SourceIndex } from './source-index.ts';
import { lowerBound } from './sorted.ts';
import { matchesBetween, textNeedle } from './text-search.ts';
import { normalise } from './text/normalise.ts';

/** A quote shorter than this (normalised) is found too easily to be evidence of anything. */
const MIN_QUOTE = 3;

/** Where the model's quote stands in the source: `[start, end)` into the normalised text. */
export type QuoteSpan = { start: number; end: number; needle: string };

/**
 * The model's quote in the source, as it is (normalised), else within the allowed edits. Of
 * several places the quote is written, the first at or after flat offset `after` (where the
 * previous item of a list was found), else the first.
 */
export function findQuote(index: SourceIndex, quote: string, after = 0): QuoteSpan | null {
  const needle = normalise(quote).text;
  if (needle.length < MIN_QUOTE) return null;
  const prepared = textNeedle(index, needle);
  const end = index.norm.text.length;
  const exact = prepared
    ? (matchesBetween(index, prepared, lowerBound(index.norm.starts, after), end, 1)[0] ??
      matchesBetween(index, prepared, 0, end, 1)[0])
    : undefined;
  if (exact) return { start: exact[0], end: exact[1], needle };
  const near = findApproximately(index, needle);
  return near ? { start: near.start, end: near.end, needle } : null;
}

// Characters OCR confuses with digits. Folding both sides the same way lets `1,234.5O` read as
// the number it was, while an `8` in place of a `7` stays a difference.
const OCR_DIGITS: Record<string, string> = {
  o: '0',
  l: '1',
  i: '1',
  '|': '1',
  s: '5',
  b: '8',
  z: '2',
  g: '9',
};

function ocrFold(text: string): string {
  let folded = '';
  for (const ch of text) folded += OCR_DIGITS[ch] ?? ch;
  return folded;
}

const HAS_DIGIT = /\d/;

/**
 * Whether the source's text at a found quote supports the value, and where in it the value
 * stands (`[start, end)` into the normalised text), or `true` when it supports it without a
 * place. The quote is only the model's pointer to evidence, so a number, a date, or a string
 * holding digits (an identifier, an amount) must itself be read there, OCR confusions allowed:
 * a real quote around an invented figure grounds nothing. A string without digits that is part
 * of the quote must be read there within the quote's edit allowance. One that is not
 * part of the model's quote (a category or a paraphrase: `paid` for "Paid in full") and a
 * boolean are supported by the quote being found.
 */
export function supports(
  index: SourceIndex,
  span: QuoteSpan,
  value: string | number | boolean,
): [number, number] | boolean {
  if (typeof value === 'boolean') return true;
  const plain = index.norm.text.slice(span.start, span.end);
  const folded = ocrFold(plain);
  const at = (place: [number, number] | null) =>
    place ? ([span.start + place[0], span.start + place[1]] as [number, number]) : false;
  if (typeof value === 'number') return at(numberIn(folded, [magnitudeOf(value)]));
  const number = readNumberValue(value);
  if (number) return at(numberIn(folded, number.magnitudes));
  const date = readDateValue(value);
  if (date) return at(dateIn(plain, date) ?? dateIn(folded, date));
  const wanted = normalise(value).text;
  if (HAS_DIGIT.test(wanted)) {
    const found = folded.indexOf(ocrFold(wanted));
    return found < 0 ? false : [span.start + found, span.start + found + wanted.length];
  }
  if (span.needle.includes(wanted)) {
    // Words may carry OCR noise of their own (`Acrne` for `Acme`): the same allowance as quotes.
    const near = sellers(wanted, plain, 0, plain.length, allowedEdits(wanted.length));
    return near ? [span.start + near.start, span.start + near.end] : false;
  }
  return true;
}

function numberIn(text: string, magnitudes: string[]): [number, number] | null {
  let place: [number, number] | null = null;
  scanNumbers(text, (o) => {
    if (!place && magnitudes.includes(o.magnitude)) place = [o.start, o.end];
  });
  return place;
}

function dateIn(text: string, readings: string[]): [number, number] | null {
  let place: [number, number] | null = null;
  scanDates(text, (o) => {
    if (!place && readings.includes(o.iso)) place = [o.start, o.end];
  });
  return place;
}
