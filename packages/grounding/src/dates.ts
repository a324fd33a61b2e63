import { fold, isAsciiDigit, isLetter, isWordChar } from './text/chars.ts';

/**
 * Dates as commonly written, read in one pass with bounded look-ahead at each word: ISO
 * `2024-03-05` (and `2024/03/05`), `05/03/2024`, `05.03.2024`, `5 March 2024`, `5th of March,
 * 2024`, `March 5, 2024`, `5 Mar 2024`, `05-Mar-2024`; English, German, French and Spanish
 * month names and the usual abbreviations.
 *
 * Day and month: `05.03.2024` (dots) is always day first, as everywhere dots are used. With `/`
 * or `-` both readings are valid where both fields are 12 or less, and the written date is kept
 * under both, since nothing in the text says which convention it follows; a value matches
 * either. A field over 12 settles it. Two-digit years: 00–69 are 2000–2069, 70–99 are 1970–1999.
 */
export interface DateOccurrence {
  start: number;
  end: number;
  /** `YYYY-MM-DD` */
  iso: string;
  /** Another reading of the same text exists (day and month swapped). */
  ambiguous: boolean;
}

const MONTHS: Record<string, number> = {};
const names: [number, string[]][] = [
  [1, ['january', 'jan', 'januar', 'janvier', 'enero', 'jänner', 'janv']],
  [2, ['february', 'feb', 'februar', 'fevrier', 'febrero', 'fevr', 'fev']],
  [3, ['march', 'mar', 'marz', 'mars', 'marzo', 'mrz']],
  [4, ['april', 'apr', 'avril', 'abril', 'avr', 'abr']],
  [5, ['may', 'mai', 'mayo']],
  [6, ['june', 'jun', 'juni', 'juin', 'junio']],
  [7, ['july', 'jul', 'juli', 'juillet', 'julio', 'juil']],
  [8, ['august', 'aug', 'aout', 'agosto', 'ago']],
  [9, ['september', 'sep', 'sept', 'septembre', 'septiembre', 'set']],
  [10, ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre']],
  [11, ['november', 'nov', 'novembre', 'noviembre']],
  [12, ['december', 'dec', 'dezember', 'dez', 'decembre', 'diciembre', 'dic']],
];
for (const [month, list] of names) for (const name of list) MONTHS[name] = month;

const MAX_MONTH_WORD = 12;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || year < 1000 || year > 9999) return null;
  if (day > daysIn(year, month)) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function fullYear(digits: string): number | null {
  if (digits.length === 4) return Number(digits);
  if (digits.length === 2) {
    const yy = Number(digits);
    return yy < 70 ? 2000 + yy : 1900 + yy;
  }
  return null;
}

/** A cursor over the text; every read is bounded, so each start costs a constant. */
class Reader {
  constructor(
    readonly text: string,
    public pos: number,
  ) {}
  digits(min: number, max: number): string | null {
    let end = this.pos;
    while (
      end < this.text.length &&
      end - this.pos <= max &&
      isAsciiDigit(this.text.charCodeAt(end))
    )
      end++;
    const length = end - this.pos;
    if (length < min || length > max) return null;
    const found = this.text.slice(this.pos, end);
    this.pos = end;
    return found;
  }
  char(options: string): string | null {
    const ch = this.text[this.pos];
    if (ch === undefined || !options.includes(ch)) return null;
    this.pos++;
    return ch;
  }
  spaces(max = 3): number {
    let n = 0;
    while (
      n < max &&
      (this.text[this.pos] === ' ' ||
        this.text[this.pos] === '\u00a0' ||
        this.text[this.pos] === '\n')
    ) {
      this.pos++;
      n++;
    }
    return n;
  }
  /** A word of letters (at most a month name's length), folded. */
  word(): string | null {
    let end = this.pos;
    while (end < this.text.length && end - this.pos <= MAX_MONTH_WORD && isLetter(this.text[end]!))
      end++;
    if (end === this.pos || end - this.pos > MAX_MONTH_WORD) return null;
    if (end < this.text.length && isWordChar(this.text[end]!)) return null;
    let folded = '';
    for (let k = this.pos; k < end; k++) folded += fold(this.text[k]!);
    this.pos = end;
    return folded;
  }
  month(): number | null {
    const at = this.pos;
    const month = MONTHS[this.word() ?? ''];
    if (month === undefined) {
      this.pos = at;
      return null;
    }
    this.char('.');
    return month;
  }
  /** `st`, `nd`, `rd`, `th` (and `.`, `er` as in `1er`) after a day. */
  ordinal(): void {
    const two = this.text.slice(this.pos, this.pos + 2).toLowerCase();
    if (['st', 'nd', 'rd', 'th', 'er'].includes(two) && !isWordChar(this.text[this.pos + 2] ?? ' '))
      this.pos += 2;
    else this.char('.');
  }
  optionalWord(word: string): void {
    const at = this.pos;
    if (this.word() === word && this.spaces() > 0) return;
    this.pos = at;
  }
  atBoundary(): boolean {
    return this.pos >= this.text.length || !isWordChar(this.text[this.pos]!);
  }
}

type Found = { end: number; readings: string[] };

/** `2024-03-05`, `2024/3/5`, `2024.03.05` */
function yearFirst(r: Reader): Found | null {
  const year = r.digits(4, 4);
  const sep = year && r.char('-/.');
  const month = sep && r.digits(1, 2);
  const day = month && r.char(sep) && r.digits(1, 2);
  if (!day || !r.atBoundary()) return null;
  const reading = iso(Number(year), Number(month), Number(day));
  return reading ? { end: r.pos, readings: [reading] } : null;
}

/** `05/03/2024`, `5-3-24`, `05.03.2024` (dots: day first) */
function numeric(r: Reader): Found | null {
  const a = r.digits(1, 2);
  const sep = a && r.char('/-.');
  const b = sep && r.digits(1, 2);
  const yearDigits = b && r.char(sep) && r.digits(2, 4);
  if (!yearDigits || !r.atBoundary()) return null;
  const year = fullYear(yearDigits);
  if (year === null) return null;
  const dayFirst = iso(year, Number(b), Number(a));
  const monthFirst = sep === '.' ? null : iso(year, Number(a), Number(b));
  const readings = [...new Set([dayFirst, monthFirst].filter((x): x is string => x !== null))];
  return readings.length > 0 ? { end: r.pos, readings } : null;
}

/** `5 March 2024`, `5th of March, 2024`, `05-Mar-2024`, `5. März 2024` */
function dayFirstWords(r: Reader): Found | null {
  const day = r.digits(1, 2);
  if (!day) return null;
  r.ordinal();
  const dashed = r.char('-') !== null;
  if (!dashed) {
    if (r.spaces() === 0) return null;
    r.optionalWord('of');
    r.optionalWord('de');
  }
  const month = r.month();
  if (month === null) return null;
  if (dashed) {
    if (!r.char('-')) return null;
  } else {
    r.char(',');
    if (r.spaces() === 0) return null;
  }
  r.optionalWord('de');
  const yearDigits = r.digits(dashed ? 2 : 4, 4);
  if (!yearDigits || (yearDigits.length !== 2 && yearDigits.length !== 4) || !r.atBoundary())
    return null;
  const reading = iso(fullYear(yearDigits)!, month, Number(day));
  return reading ? { end: r.pos, readings: [reading] } : null;
}

/** `March 5, 2024`, `Mar. 5th 2024` */
function monthFirstWords(r: Reader): Found | null {
  const month = r.month();
  if (month === null || r.spaces() === 0) return null;
  const day = r.digits(1, 2);
  if (!day) return null;
  r.ordinal();
  r.char(',');
  if (r.spaces() === 0) return null;
  const yearDigits = r.digits(4, 4);
  if (!yearDigits || !r.atBoundary()) return null;
  const reading = iso(Number(yearDigits), month, Number(day));
  return reading ? { end: r.pos, readings: [reading] } : null;
}

const DIGIT_FORMS = [yearFirst, numeric, dayFirstWords];

/** Calls `visit` for every reading of every date in `text`, in order of position. */
export function scanDates(text: string, visit: (occurrence: DateOccurrence) => void): void {
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (!isWordChar(ch) || (i > 0 && isWordChar(text[i - 1]!))) {
      i++;
      continue;
    }
    const forms = isAsciiDigit(ch.charCodeAt(0))
      ? DIGIT_FORMS
      : isLetter(ch)
        ? [monthFirstWords]
        : [];
    let found: Found | null = null;
    for (const form of forms) {
      found = form(new Reader(text, i));
      if (found) break;
    }
    if (found) {
      for (const reading of found.readings) {
        visit({ start: i, end: found.end, iso: reading, ambiguous: found.readings.length > 1 });
      }
      i = found.end;
    } else i++;
  }
}

/** The date a string value spells, when the whole (trimmed) string is one: its readings. */
export function readDateValue(value: string): string[] | null {
  const s = value.trim();
  if (s.length < 6 || s.length > 40) return null;
  let readings: string[] | null = null;
  scanDates(s, (o) => {
    if (o.start === 0 && o.end === s.length) (readings ??= []).push(o.iso);
  });
  return readings;
}
