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
  let out = new Uint16Array(Math.max(16, n));
  let starts = new Int32Array(out.length);
  let ends = new Int32Array(out.length);
  let size = 0;
  // The last character written, as a code unit (0 before the first).
  let last = 0;
  let spaceFrom = -1;

  const grow = () => {
    const bigger = <T extends Uint16Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(a.length * 2);
      b.set(a);
      return b;
    };
    out = bigger(out, (k) => new Uint16Array(k));
    starts = bigger(starts, (k) => new Int32Array(k));
    ends = bigger(ends, (k) => new Int32Array(k));
  };
  const emit = (code: number, from: number, to: number) => {
    if (size === out.length) grow();
    out[size] = code;
    starts[size] = from;
    ends[size] = to;
    size++;
    last = code;
  };

  let i = 0;
  while (i < n) {
    const code = original.charCodeAt(i);
    // Plain ASCII letters, digits and punctuation: the common case, written without folding.
    if (code > 0x20 && code < 0x7f && code !== 0x2d) {
      if (spaceFrom >= 0) {
        if (size > 0) emit(0x20, spaceFrom, i);
        spaceFrom = -1;
      }
      emit(code >= 0x41 && code <= 0x5a ? code + 32 : code, i, i + 1);
      i++;
      continue;
    }
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
      const afterLetter = spaceFrom < 0 && last !== 0 && isLetter(String.fromCharCode(last));
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
      if (size > 0) emit(0x20, spaceFrom, i);
      spaceFrom = -1;
    }
    const ch = codePointAt(original, i);
    const folded = fold(ch);
    // Per code unit, so that indices into the text and into the maps agree.
    for (let k = 0; k < folded.length; k++) emit(folded.charCodeAt(k), i, i + ch.length);
    i += ch.length;
  }
  return {
    text: decode(out.subarray(0, size)),
    starts: starts.subarray(0, size),
    ends: ends.subarray(0, size),
  };
}

function decode(units: Uint16Array): string {
  // TextDecoder would replace lone surrogates; a source may hold them, and indices must not shift.
  let text = '';
  const CHUNK = 8192;
  for (let k = 0; k < units.length; k += CHUNK) {
    text += String.fromCharCode(...units.subarray(k, k + CHUNK));
  }
  return text;
}

function codePointAt(text: string, i: number): string {
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return text.slice(i, i + 2);
  }
  return text[i] ?? '';
}
