import type { Citation } from '../types.ts';

type PageBox = Citation['boxes'][number];

/**
 * Where the text of a value's line starts, as far as the page's cited boxes tell (fractions of
 * the page's width): the leftmost box on the value's line (an item cited beside its amount), or
 * else the leftmost on the page (its text's margin). An amount is cited without its label, and
 * a close-up centred on the amount cut the label off.
 */
export function lineStart(value: readonly PageBox[], page: readonly PageBox[]): number {
  const first = value[0];
  if (!first) return 0;
  const onLine = page.filter((b) => b[1] < first[3] && first[1] < b[3]);
  const from = onLine.length > 0 ? onLine : page;
  return Math.min(first[0], ...from.map((b) => b[0]));
}

/**
 * Where a window `width` wide starts so that the value [x0, x1] is in it with as much of its
 * line before it (its label, from `start`) as fits: from the line's start when all of it fits,
 * else ending just after the value; a value wider than the window shows from its own start.
 */
export function windowStart(
  value: { x0: number; x1: number },
  start: number,
  width: number,
  pad: number,
): number {
  const from = Math.min(value.x0, start) - pad;
  if (value.x1 + pad - from <= width) return from;
  return Math.min(value.x0 - pad, value.x1 + pad - width);
}
