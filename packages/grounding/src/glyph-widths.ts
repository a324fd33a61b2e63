/**
 * Advance widths of printable ASCII in Helvetica (its AFM metrics, in thousandths of an em),
 * from space (U+0020) to tilde (U+007E). Lines from a text layer or OCR carry a box but no
 * per-character positions; weighting characters by a common proportional font's widths puts a
 * value's box much nearer its glyphs than counting characters does ("Total due: " is narrow,
 * digits are wide). Characters outside the table count as a digit's width.
 */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const DEFAULT_WIDTH = 556;

export function glyphWidth(code: number): number {
  return code >= 0x20 && code <= 0x7e ? HELVETICA[code - 0x20]! : DEFAULT_WIDTH;
}

/** The summed widths of `text`'s first `n` characters, for each n from 0 to its length. */
export function cumulativeWidths(text: string): number[] {
  const out = [0];
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    sum += glyphWidth(text.charCodeAt(i));
    out.push(sum);
  }
  return out;
}
