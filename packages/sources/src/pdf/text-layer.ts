/** One run of text placed on the page, in device space (y grows downwards, units: px at scale 1). */
export interface PlacedText {
  str: string;
  x: number;
  /** Baseline. */
  y: number;
  width: number;
  /** Font size in the same units. */
  size: number;
  rtl: boolean;
  /** Where the run is drawn, as fractions of the page (top-left origin), when asked for. */
  box?: [number, number, number, number];
}

/** A line as read, with the union of its runs' boxes when they have one. */
export interface PlacedLine {
  text: string;
  box?: [number, number, number, number];
  /**
   * With boxes: the line's cells (runs between gaps wide enough for a tab), each with its own
   * box. A value is located in its cell, so its box is not stretched over the whole row.
   */
  cells?: { text: string; box: [number, number, number, number] }[];
}

/** Gap (in font sizes) above which two runs on a line are separate words. */
const WORD_GAP = 0.15;
/** Gap above which they are separate cells or columns: kept visible as a tab. */
const CELL_GAP = 2;

/** The line's runs in reading order, cut into cells where the gap is wider than CELL_GAP. */
function cellsOf(items: PlacedText[]): { rtl: boolean; cells: PlacedText[][] } {
  const rtl = items.filter((i) => i.rtl).length > items.length / 2;
  const sorted = [...items].sort((a, b) => (rtl ? b.x - a.x : a.x - b.x));
  const cells: PlacedText[][] = [];
  let prev: PlacedText | undefined;
  for (const item of sorted) {
    const gap = prev
      ? rtl
        ? prev.x - (item.x + item.width)
        : item.x - (prev.x + prev.width)
      : Number.POSITIVE_INFINITY;
    const size = prev ? Math.max(prev.size, item.size, 1) : 1;
    if (!prev || gap > CELL_GAP * size) cells.push([item]);
    else cells.at(-1)?.push(item);
    prev = item;
  }
  return { rtl, cells };
}

function joinCell(items: PlacedText[], rtl: boolean): string {
  let out = '';
  let prev: PlacedText | undefined;
  for (const item of items) {
    if (prev) {
      const gap = rtl ? prev.x - (item.x + item.width) : item.x - (prev.x + prev.width);
      const size = Math.max(prev.size, item.size, 1);
      if (gap > WORD_GAP * size && !/\s$/.test(out) && !/^\s/.test(item.str)) out += ' ';
    }
    out += item.str;
    prev = item;
  }
  return out.replace(/[ \u00a0]+/g, ' ').trim();
}

function joinLine(items: PlacedText[]): string {
  const { rtl, cells } = cellsOf(items);
  return cells
    .map((cell) => joinCell(cell, rtl))
    .join('\t')
    .replace(/[ \u00a0]+/g, ' ')
    .trim();
}

/**
 * Puts text runs in reading order: runs whose baselines lie within half a font size of each
 * other form a line, lines run top to bottom, runs within a line left to right (right to left
 * when most of the line is RTL script). Content-stream order is not used because generators
 * emit text in any order (headers last, table cells column by column).
 */
export function linesInReadingOrder(items: PlacedText[]): string[] {
  return placedLines(items).map((line) => line.text);
}

/** The same lines as linesInReadingOrder, each with its box (docs/citations.md). */
export function placedLines(items: PlacedText[]): PlacedLine[] {
  const runs = items.filter((i) => i.str.trim() !== '').sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: PlacedText[][] = [];
  let current: PlacedText[] = [];
  let baseline = Number.NaN;
  for (const run of runs) {
    if (current.length > 0 && Math.abs(run.y - baseline) <= 0.5 * run.size) {
      current.push(run);
      continue;
    }
    if (current.length > 0) lines.push(current);
    current = [run];
    baseline = run.y;
  }
  if (current.length > 0) lines.push(current);
  return lines
    .map((runs) => {
      const text = joinLine(runs);
      const box = unionBox(runs);
      if (!box) return { text };
      const { rtl, cells } = cellsOf(runs);
      return {
        text,
        box,
        cells: cells.flatMap((cell) => {
          const cellText = joinCell(cell, rtl);
          const cellBox = unionBox(cell);
          return cellText !== '' && cellBox ? [{ text: cellText, box: cellBox }] : [];
        }),
      };
    })
    .filter((l) => l.text !== '');
}

function unionBox(runs: PlacedText[]): PlacedLine['box'] {
  const boxes = runs.flatMap((r) => (r.box ? [r.box] : []));
  if (boxes.length === 0) return undefined;
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}
