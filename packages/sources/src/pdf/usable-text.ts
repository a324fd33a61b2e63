/** Fewer visible characters than this is a page number or a stray header, not a page of text. */
const MIN_CHARS = 20;
/** Replacement, control, surrogate and private-use characters: glyphs with no Unicode meaning. */
const GARBAGE = /[\uFFFD\p{Cc}\p{Cs}\p{Co}]/u;
const WORDLIKE = /[\p{L}\p{N}]/u;

/**
 * - `usable`: the text layer can stand in for the page.
 * - `sparse`: too little text to tell (a scan with a page number, or a short cover page).
 * - `garbled`: plenty of characters but not language: a font without a Unicode map yields
 *   replacement or private-use characters, or runs of punctuation where letters should be.
 *   Real prose, tables and forms are mostly letters and digits, so at least half the visible
 *   characters must be, and almost none may be garbage.
 */
export type TextQuality = 'usable' | 'sparse' | 'garbled';

export function assessText(text: string): TextQuality {
  const chars = Array.from(text.replace(/\s+/gu, ''));
  if (chars.length < MIN_CHARS) return 'sparse';
  let garbage = 0;
  let wordlike = 0;
  for (const c of chars) {
    if (GARBAGE.test(c)) garbage++;
    else if (WORDLIKE.test(c)) wordlike++;
  }
  return garbage / chars.length < 0.05 && wordlike / chars.length >= 0.5 ? 'usable' : 'garbled';
}

export function isUsableText(text: string): boolean {
  return assessText(text) === 'usable';
}
