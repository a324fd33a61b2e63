import type { SourceIndex } from './source-index.ts';
import { forEachWord } from './source-index.ts';
import { isUnspaced, isWordChar } from './text/chars.ts';

/** More matches than this of one value say nothing more about it; the search stops there. */
const MAX_MATCHES = 1000;

/**
 * Where `needle` (already normalised) occurs in the normalised source, as `[start, end)` into
 * `norm.text`, in order, on word boundaries (`5` is not found inside `15`, nor `art` in `start`).
 * Candidates come from the word index: only the occurrences of the needle's rarest word are
 * compared, so a value costs its rarest word's frequency, not the source's length.
 */
export function findNormalised(index: SourceIndex, needle: string): [number, number][] {
  if (needle.length === 0) return [];
  const text = index.norm.text;
  let rarest: { postings: number[]; offset: number } | null = null;
  let missing = false;
  forEachWord(needle, (word, offset) => {
    const postings = index.words.get(word);
    if (!postings) missing = true;
    else if (!rarest || postings.length < rarest.postings.length) rarest = { postings, offset };
  });
  if (missing) return [];
  const found: [number, number][] = [];
  const accept = (start: number) => {
    if (
      start >= 0 &&
      text.startsWith(needle, start) &&
      onBoundaries(text, start, start + needle.length)
    ) {
      found.push([start, start + needle.length]);
    }
  };
  const chosen = rarest as { postings: number[]; offset: number } | null;
  if (chosen) {
    for (const position of chosen.postings) {
      accept(position - chosen.offset);
      if (found.length >= MAX_MATCHES) break;
    }
  } else {
    // Punctuation only (`%`, `-`): no word to look up; native search, still bounded in matches.
    let from = text.indexOf(needle);
    while (from >= 0 && found.length < MAX_MATCHES) {
      accept(from);
      from = text.indexOf(needle, from + 1);
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
