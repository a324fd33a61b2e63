import type { GroundingSource } from '@xt/contract';
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
}

/**
 * Everything the locator needs, built once per source in linear time and reused for every value
 * of the answer, so that grounding an answer costs about the answer's size, not answer × source.
 */
export interface SourceIndex {
  source: GroundingSource;
  /** The source as one string: the text itself, or a pages source's lines joined by `\n`. */
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
  /** Where each row begins (rows.ts): lines of a text, bands of a page. */
  rows: RowStarts;
  /** The locator's own cache of what it found for each distinct value. */
  memo: Map<string, unknown>;
}

export function isSourceIndex(value: GroundingSource | SourceIndex): value is SourceIndex {
  return 'flat' in value;
}

/** A source kind as the locator reads it: one flat text, its lines with boxes, its rows. */
interface Layout {
  flat: string;
  lines: IndexedLine[];
  rows: RowStarts;
}

/**
 * How each kind of source is laid out for the locator. A new kind adds its entry here (and
 * its place in locations.ts): its text flattened in reading order, and where its rows begin,
 * so that the values of one array item are looked for together (a spreadsheet: each sheet row's
 * cells, in order, one row).
 */
const LAYOUTS: { [K in GroundingSource['kind']]: (s: SourceOf<K>) => Layout } = {
  text: (s) => ({ flat: s.content, lines: [], rows: lineStarts(s.content) }),
  plain: (s) => ({ flat: s.text, lines: [], rows: lineStarts(s.text) }),
  pages: (s) => {
    const lines: IndexedLine[] = [];
    const parts: string[] = [];
    let offset = 0;
    for (const page of s.pages) {
      for (const line of page.lines) {
        // Pages are separated like lines: a value may well run from one page onto the next.
        if (parts.length > 0) offset += 1;
        lines.push({ page: page.page, start: offset, length: line.text.length, box: line.box });
        parts.push(line.text);
        offset += line.text.length;
      }
    }
    return { flat: parts.join('\n'), lines, rows: bandStarts(lines) };
  },
};

type SourceOf<K extends GroundingSource['kind']> = Extract<GroundingSource, { kind: K }>;

export function indexSource(source: GroundingSource): SourceIndex {
  const layout = LAYOUTS[source.kind] as (s: GroundingSource) => Layout;
  const { flat, lines, rows } = layout(source);
  const norm = normalise(flat);
  const numbers = new Map<string, NumberOccurrence[]>();
  scanNumbers(flat, (occurrence) => append(numbers, occurrence.magnitude, occurrence));
  const dates = new Map<string, DateOccurrence[]>();
  scanDates(flat, (occurrence) => append(dates, occurrence.iso, occurrence));
  const words = indexWords(norm.text);
  return { source, flat, norm, words, numbers, dates, lines, rows, memo: new Map() };
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
