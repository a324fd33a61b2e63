import { cellRef, type GroundingSource, type OcrWord } from '@xt/contract';
import { scanDates, type DateOccurrence } from './dates.ts';
import { scanNumbers, type NumberOccurrence } from './numbers.ts';
import { isUnspaced, isWordChar } from './text/chars.ts';
import { normalise, type Normalised } from './text/normalise.ts';
import { bandStarts, lineStarts, type RowStarts } from './rows.ts';

/** A line of a `pages` source, placed in the flat text. */
export interface IndexedLine {
  page: number;
  /** Offset of the line's first character in the flat text. */
  start: number;
  length: number;
  box: [number, number, number, number];
  /** An OCR line's words, offsets within the line (GroundingLine). */
  words?: OcrWord[];
}

/** A cell of a `sheets` source, placed in the flat text. */
export interface IndexedCell {
  sheet: string;
  /** Its A1 reference. */
  ref: string;
  /** Offset of its first character in the flat text; its length there is its text's. */
  start: number;
  /** Its displayed text, as the sheet shows it (the flat text has its line breaks as spaces). */
  text: string;
}

/**
 * A part of a `parts` source (an email's body or an attachment), placed in the flat text: where
 * it starts, its own source, and its own layout (offsets local to the part).
 */
export interface IndexedPart {
  part: string;
  start: number;
  source: GroundingSource;
  layout: Layout;
}

/**
 * Everything the locator needs, built once per source in linear time and reused for every value
 * of the answer, so that grounding an answer costs about the answer's size, not answer × source.
 */
export interface SourceIndex {
  source: GroundingSource;
  /**
   * The source as one string: the text itself, a pages source's lines joined by `\n`, a parts
   * source's parts so flattened and joined by `\n`.
   */
  flat: string;
  norm: Normalised;
  /** Word of the normalised text → offsets (into `norm.text`) where it starts. */
  words: Map<string, number[]>;
  /** Canonical magnitude → its written occurrences, in order. */
  numbers: Map<string, NumberOccurrence[]>;
  /** `YYYY-MM-DD` → the written dates that read so, in order. */
  dates: Map<string, DateOccurrence[]>;
  /** `pages` sources only, in flat order. */
  lines: IndexedLine[];
  /** `parts` sources only, in flat order. */
  parts: IndexedPart[];
  /** `sheets` sources only, in flat order. */
  cells: IndexedCell[];
  /** Where each row begins (rows.ts): lines of a text, bands of a page. */
  rows: RowStarts;
  /** The locator's own cache of what it found for each distinct value. */
  memo: Map<string, unknown>;
}

export function isSourceIndex(value: GroundingSource | SourceIndex): value is SourceIndex {
  return 'flat' in value;
}

/**
 * A source kind as the locator reads it: one flat text, its rows, and what places a quote in it
 * (lines with boxes, parts, cells).
 */
export interface Layout {
  flat: string;
  lines: IndexedLine[];
  rows: RowStarts;
  parts: IndexedPart[];
  cells: IndexedCell[];
}

/** What a layout without lines, parts or cells has of them. */
const none = (): Pick<Layout, 'lines' | 'parts' | 'cells'> => ({ lines: [], parts: [], cells: [] });

/**
 * How each kind of source is laid out for the locator. A new kind adds its entry here (and
 * its place in locations.ts): its text flattened in reading order, and where its rows begin,
 * so that the values of one array item are looked for together (a spreadsheet: each sheet row's
 * cells, in order, one row).
 */
const LAYOUTS: { [K in GroundingSource['kind']]: (s: SourceOf<K>) => Layout } = {
  text: (s) => ({ ...none(), flat: s.content, rows: lineStarts(s.content) }),
  plain: (s) => ({ ...none(), flat: s.text, rows: lineStarts(s.text) }),
  pages: (s) => {
    const lines: IndexedLine[] = [];
    const parts: string[] = [];
    let offset = 0;
    for (const page of s.pages) {
      for (const line of page.lines) {
        // Pages are separated like lines: a value may well run from one page onto the next.
        if (parts.length > 0) offset += 1;
        lines.push({
          page: page.page,
          start: offset,
          length: line.text.length,
          box: line.box,
          ...(line.words ? { words: line.words } : {}),
        });
        parts.push(line.text);
        offset += line.text.length;
      }
    }
    return { ...none(), flat: parts.join('\n'), lines, rows: bandStarts(lines) };
  },
  // The parts one after the other, each laid out by its own kind; each part starts a row, so
  // the values of one array item are never looked for across two attachments.
  parts: (s) => {
    const parts: IndexedPart[] = [];
    const flats: string[] = [];
    const lines: IndexedLine[] = [];
    const rows: number[] = [];
    let offset = 0;
    for (const { part, source } of s.parts) {
      if (flats.length > 0) offset += 1;
      const layout = layoutOf(source);
      parts.push({ part, start: offset, source, layout });
      for (const line of layout.lines) lines.push({ ...line, start: line.start + offset });
      for (const row of layout.rows) rows.push(row + offset);
      flats.push(layout.flat);
      offset += layout.flat.length;
    }
    return { ...none(), flat: flats.join('\n'), lines, rows: rows.length > 0 ? rows : [0], parts };
  },
  // Each sheet row one line of the flat text, its cells apart by tabs: a row is what an array
  // item's values are looked for on together, and a value is cited in the cell it is read in.
  sheets: (s) => {
    const cells: IndexedCell[] = [];
    const rows: number[] = [];
    const pieces: string[] = [];
    let offset = 0;
    for (const sheet of s.sheets) {
      for (const row of sheet.rows) {
        if (pieces.length > 0) {
          pieces.push('\n');
          offset += 1;
        }
        rows.push(offset);
        row.cells.forEach((cell, k) => {
          if (k > 0) {
            pieces.push('\t');
            offset += 1;
          }
          cells.push({
            sheet: sheet.name,
            ref: cellRef(cell.col, row.row),
            start: offset,
            text: cell.text,
          });
          pieces.push(oneLine(cell.text));
          offset += cell.text.length;
        });
      }
    }
    return { ...none(), flat: pieces.join(''), rows: rows.length > 0 ? rows : [0], cells };
  },
};

/**
 * A cell's text with its line breaks and tabs as spaces, character for character (so offsets
 * stay the cell's own): inside the flat text they would start a row or a cell of their own.
 */
function oneLine(text: string): string {
  return text.replace(/[\t\n\v\f\r\u2028\u2029]/g, ' ');
}

function layoutOf(source: GroundingSource): Layout {
  return (LAYOUTS[source.kind] as (s: GroundingSource) => Layout)(source);
}

type SourceOf<K extends GroundingSource['kind']> = Extract<GroundingSource, { kind: K }>;

export function indexSource(source: GroundingSource): SourceIndex {
  const { flat, lines, rows, parts, cells } = layoutOf(source);
  const norm = normalise(flat);
  const numbers = new Map<string, NumberOccurrence[]>();
  scanNumbers(flat, (occurrence) => append(numbers, occurrence.magnitude, occurrence));
  const dates = new Map<string, DateOccurrence[]>();
  scanDates(flat, (occurrence) => append(dates, occurrence.iso, occurrence));
  const words = indexWords(norm.text);
  return { source, flat, norm, words, numbers, dates, lines, rows, parts, cells, memo: new Map() };
}

function append<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

/** Each maximal run of word characters; each character of an unspaced script on its own. */
export function forEachWord(text: string, visit: (word: string, start: number) => void): void {
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (!isWordChar(ch)) {
      i++;
      continue;
    }
    if (isUnspaced(ch)) {
      visit(ch, i);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && isWordChar(text[j]!) && !isUnspaced(text[j]!)) j++;
    visit(text.slice(i, j), i);
    i = j;
  }
}

function indexWords(text: string): Map<string, number[]> {
  const words = new Map<string, number[]>();
  forEachWord(text, (word, start) => append(words, word, start));
  return words;
}
