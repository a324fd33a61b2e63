import { SOFT_HYPHEN, fold, isHyphen, isLetter, isLineBreak, isWhitespace } from './chars.ts';

/**
 * Text as compared, with a map back to the text it came from: `text[k]` came from
 * `original.slice(starts[k], ends[k])`, so a match in the normalised copy is cut from the
 * original (JavaScript string indices) without searching twice.
 */
export interface Normalised {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * One pass, no regular expression over the whole text: case and diacritics folded, every run of
 * whitespace one space (none at either end), and a hyphen dropped where it joins two letters
 * directly (`e-mail`) or across a line end (`inter-\nnational`), so that a word split by a line
 * break compares equal to the word. The same function normalises sources and values, so both
 * sides agree on every rule.
 */
export function normalise(original: string): Normalised {
  const n = original.length;
  const chars: string[] = [];
  let starts = new Int32Array(Math.max(16, n));
  let ends = new Int32Array(Math.max(16, n));
  let size = 0;
  let last = '';
  let spaceFrom = -1;

  const emit = (ch: string, from: number, to: number) => {
    if (size === starts.length) {
      const grownStarts = new Int32Array(size * 2);
      grownStarts.set(starts);
      starts = grownStarts;
      const grownEnds = new Int32Array(size * 2);
      grownEnds.set(ends);
      ends = grownEnds;
    }
    chars.push(ch);
    starts[size] = from;
    ends[size] = to;
    size++;
    last = ch;
  };

  let i = 0;
  while (i < n) {
    const code = original.charCodeAt(i);
    if (isWhitespace(code)) {
      if (spaceFrom < 0) spaceFrom = i;
      i++;
      continue;
    }
    if (isHyphen(code) || code === SOFT_HYPHEN) {
      // Each whitespace run is looked at here at most once more, by the hyphen just before it.
      let j = i + 1;
      let lineBreak = false;
      while (j < n && isWhitespace(original.charCodeAt(j))) {
        if (isLineBreak(original.charCodeAt(j))) lineBreak = true;
        j++;
      }
      const afterLetter = spaceFrom < 0 && last !== '' && isLetter(last);
      const beforeLetter = j < n && isLetter(codePointAt(original, j));
      if (afterLetter && beforeLetter && (j === i + 1 || lineBreak)) {
        i = j;
        continue;
      }
      if (code === SOFT_HYPHEN) {
        i++;
        continue;
      }
    }
    if (spaceFrom >= 0) {
      if (size > 0) emit(' ', spaceFrom, i);
      spaceFrom = -1;
    }
    const ch = codePointAt(original, i);
    const folded = fold(ch);
    // Per code unit, so that indices into the joined text and into the maps agree.
    for (let k = 0; k < folded.length; k++) emit(folded[k]!, i, i + ch.length);
    i += ch.length;
  }
  return { text: chars.join(''), starts: starts.subarray(0, size), ends: ends.subarray(0, size) };
}

function codePointAt(text: string, i: number): string {
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return text.slice(i, i + 2);
  }
  return text[i] ?? '';
}
