import { ELEMENT_NODE, type PElement } from './dom.ts';
import { tidy } from './text.ts';
import type { Walk } from './walk.ts';

/** Element children with one of the given tag names, in document order. */
function childElements(el: PElement, tags: ReadonlySet<string>): PElement[] {
  const found: PElement[] = [];
  const kids = el.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i];
    if (k?.nodeType === ELEMENT_NODE && tags.has((k as PElement).localName))
      found.push(k as PElement);
  }
  return found;
}

const TR = new Set(['tr']);
const CELLS = new Set(['td', 'th']);
const SECTIONS = new Set(['thead', 'tbody', 'tfoot', 'tr']);
const CAPTION = new Set(['caption']);

/** The table's own rows in the order a browser's `table.rows` gives: head, body, foot. */
function rowsOf(table: PElement): PElement[] {
  const head: PElement[] = [];
  const body: PElement[] = [];
  const foot: PElement[] = [];
  for (const part of childElements(table, SECTIONS)) {
    if (part.localName === 'tr') body.push(part);
    else if (part.localName === 'thead') head.push(...childElements(part, TR));
    else if (part.localName === 'tfoot') foot.push(...childElements(part, TR));
    else body.push(...childElements(part, TR));
  }
  return [...head, ...body, ...foot];
}

function span(cell: PElement, attr: string, max: number): number {
  const n = Number.parseInt(cell.getAttribute(attr) ?? '1', 10);
  return Number.isFinite(n) ? Math.max(1, Math.min(n, max)) : 1;
}

function isLayoutTable(t: PElement, width: number): boolean {
  if ((t.getAttribute('role') ?? '') === 'presentation' || width <= 1) return true;
  return t.querySelector('table, h1, h2, h3, h4, h5, h6, ul, ol, pre, blockquote') !== null;
}

/**
 * A data table as a Markdown table (first row as header, caption in bold above); a layout
 * table (presentation role, one column, or holding headings, lists or tables) as plain blocks.
 */
export function table(t: PElement, out: string[], walk: Walk): void {
  const rows = rowsOf(t);
  const cellsOf = (row: PElement): PElement[] => childElements(row, CELLS);
  const grid: string[][] = [];
  /** How many of the grid's first rows are header rows (in <thead>, or all <th>). */
  let headerRows = 0;
  // Cells spanning rows are repeated so every Markdown row stands on its own.
  const carry: { text: string; left: number }[] = [];
  let width = 0;
  for (const row of rows) {
    if (walk.classify.gone(row)) continue;
    const cells: string[] = [];
    const rowCells = cellsOf(row);
    // A header cell spanning columns names each of them; a spanning data cell is stated once.
    const isHeader =
      row.parentElement?.localName === 'thead' ||
      (rowCells.length > 0 && rowCells.every((c) => c.localName === 'th'));
    let col = 0;
    const fillCarried = (): void => {
      let c = carry[col];
      while (c && c.left > 0) {
        cells.push(c.text);
        c.left -= 1;
        col += 1;
        c = carry[col];
      }
    };
    for (const cell of rowCells) {
      fillCarried();
      const content = walk.classify.gone(cell)
        ? ''
        : tidy(walk.inlineOf(cell)).replace(/\n/g, ' ').replace(/\|/g, '\\|');
      const colSpan = span(cell, 'colspan', 50);
      const rowSpan = span(cell, 'rowspan', 500);
      for (let s = 0; s < colSpan; s++) {
        cells.push(s === 0 || isHeader ? content : '');
        if (rowSpan > 1) carry[col] = { text: content, left: rowSpan - 1 };
        col += 1;
      }
    }
    fillCarried();
    if (cells.some((c) => c !== '')) {
      if (isHeader && headerRows === grid.length) headerRows += 1;
      grid.push(cells);
      width = Math.max(width, cells.length);
    }
  }
  if (grid.length === 0) return;
  if (isLayoutTable(t, width)) {
    for (const row of rows) {
      for (const cell of cellsOf(row))
        if (!walk.classify.gone(cell)) walk.renderChildren(cell, out);
    }
    return;
  }
  const caption = childElements(t, CAPTION)[0];
  const captionText = caption && !walk.classify.gone(caption) ? tidy(walk.inlineOf(caption)) : '';
  if (captionText) walk.push(out, `**${captionText.replace(/\n/g, ' ')}**`);
  const line = (cells: string[]): string => {
    const padded = [...cells];
    while (padded.length < width) padded.push('');
    return `| ${padded.join(' | ')} |`;
  };
  // Stacked header rows (a year over its quarters) become one: "2025 Plan", "2025 Actual".
  const headCount = Math.max(1, headerRows);
  const head = Array.from({ length: width }, (_, c) => {
    const names: string[] = [];
    for (const row of grid.slice(0, headCount)) {
      const name = row[c] ?? '';
      if (name !== '' && names.at(-1) !== name) names.push(name);
    }
    return names.join(' ');
  });
  const body = grid.slice(headCount);
  const lines = [line(head), line(new Array<string>(width).fill('---')), ...body.map(line)];
  walk.push(out, lines.join('\n'));
}
