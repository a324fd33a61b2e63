import type { SourceIndex } from './source-index.ts';
import { forEachWord } from './source-index.ts';
import { lowerBound } from './sorted.ts';
import { isUnspaced, isWordChar } from './text/chars.ts';

/** A normalised needle, ready to be looked for anywhere in the source or in one part of it. */
export interface TextNeedle {
  needle: string;
  /** Where the needle's rarest word starts in `norm.text` (its postings), and in the needle. */
  rarest: { postings: number[]; offset: number } | null;
}

/** null when a word of the needle occurs nowhere in the source: it cannot be found. */
export function textNeedle(index: SourceIndex, needle: string): TextNeedle | null {
  if (needle.length === 0) return null;
  let rarest: TextNeedle['rarest'] = null;
  let missing = false;
  forEachWord(needle, (word, offset) => {
    const postings = index.words.get(word);
    if (!postings) missing = true;
    else if (!rarest || postings.length < rarest.postings.length) rarest = { postings, offset };
  });
  return missing ? null : { needle, rarest };
}

/**
 * The matches of a prepared needle in the normalised source, on word boundaries (`5` is not
 * found inside `15`, nor `art` in `start`). Candidates come from the word index: only the
 * occurrences of the needle's rarest word are compared, so a value costs its rarest word's
 * frequency, not the source's length, and a part of the source (the word index's postings are
 * sorted) costs its own matches, not the whole source's.
 *
 * Those starting in `[from, to)` (offsets into `norm.text`), at most `limit`, in order or,
 * `backwards`, from the last. `accept` may refuse a match (the search goes on past it).
 */
export function matchesBetween(
  index: SourceIndex,
  { needle, rarest }: TextNeedle,
  from: number,
  to: number,
  limit: number,
  backwards = false,
  accept: (start: number, end: number) => boolean = () => true,
): [number, number][] {
  const text = index.norm.text;
  const found: [number, number][] = [];
  const consider = (start: number) => {
    if (
      start >= from &&
      start < to &&
      text.startsWith(needle, start) &&
      onBoundaries(text, start, start + needle.length) &&
      accept(start, start + needle.length)
    ) {
      found.push([start, start + needle.length]);
    }
  };
  if (rarest) {
    const { postings, offset } = rarest;
    // Postings p with from <= p - offset < to.
    const lo = lowerBound(postings, from + offset);
    const hi = lowerBound(postings, to + offset);
    if (backwards) {
      for (let k = hi - 1; k >= lo && found.length < limit; k--) consider(postings[k]! - offset);
    } else {
      for (let k = lo; k < hi && found.length < limit; k++) consider(postings[k]! - offset);
    }
    return found;
  }
  // Punctuation only (`%`, `-`): no word to look up; native search, still bounded in matches.
  if (backwards) {
    let at = text.lastIndexOf(needle, to - 1);
    while (at >= from && found.length < limit) {
      consider(at);
      at = at === 0 ? -1 : text.lastIndexOf(needle, at - 1);
    }
  } else {
    let at = text.indexOf(needle, from);
    while (at >= 0 && at < to && found.length < limit) {
      consider(at);
      at = text.indexOf(needle, at + 1);
    }
  }
  return found;
}

function joins(a: string | undefined, b: string | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    isWordChar(a) &&
    isWordChar(b) &&
    !isUnspaced(a) &&
    !isUnspaced(b)
  );
}

function onBoundaries(text: string, start: number, end: number): boolean {
  return !joins(text[start - 1], text[start]) && !joins(text[end - 1], text[end]);
}
