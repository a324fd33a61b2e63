/*
 * Character classes and folding used by every normalised comparison. Each function looks at one
 * character (or one code point), so callers stay single-pass.
 */

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const LETTER = /^\p{L}$/u;
// Scripts written without spaces between words: every character is a word of its own for the
// index, and word boundaries are not required around them.
const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]$/u;
const COMBINING = /\p{M}/gu;

export function isWhitespace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

export function isLineBreak(code: number): boolean {
  return (
    code === 0x0a ||
    code === 0x0d ||
    code === 0x0c ||
    code === 0x0b ||
    code === 0x2028 ||
    code === 0x2029
  );
}

/** Hyphens that may join a word split across a line end (soft hyphen handled by the caller). */
export function isHyphen(code: number): boolean {
  return code === 0x2d || code === 0x2010 || code === 0x2011;
}

export const SOFT_HYPHEN = 0xad;

export function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

export function isWordChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80) {
    return (
      (code >= 0x30 && code <= 0x39) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a)
    );
  }
  return LETTER_OR_DIGIT.test(ch);
}

export function isLetter(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  return LETTER.test(ch);
}

export function isUnspaced(ch: string): boolean {
  return ch.charCodeAt(0) >= 0x0e00 && UNSPACED.test(ch);
}

// Letters that compatibility decomposition leaves alone but readers treat as spellings of others.
const LETTER_SPELLINGS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ı: 'i',
};

const foldCache = new Map<string, string>();

/**
 * One code point as compared: lower case, compatibility forms decomposed (ligatures, full-width
 * digits), diacritics dropped, typographic dashes and quotes made plain. May be several chars
 * (`ﬁ` → `fi`) or none (a lone combining mark).
 */
export function fold(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : ch;
  let folded = foldCache.get(ch);
  if (folded === undefined) {
    if (code >= 0x2012 && code <= 0x2015) folded = '-';
    else if (code === 0x2212) folded = '-';
    else if (code === 0x2018 || code === 0x2019 || code === 0x201b || code === 0x2032) folded = "'";
    else if (code === 0x201c || code === 0x201d || code === 0x201f || code === 0x2033) folded = '"';
    else if (LETTER_SPELLINGS[ch] !== undefined) folded = LETTER_SPELLINGS[ch];
    else folded = ch.normalize('NFKD').replace(COMBINING, '').toLowerCase();
    // Bounded: a hostile source of many distinct code points must not grow memory without end.
    if (foldCache.size < 20_000) foldCache.set(ch, folded);
  }
  return folded;
}
