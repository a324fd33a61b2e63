import { isAsciiDigit, isWordChar } from './text/chars.ts';

/**
 * Numbers as written in documents, read in one pass: `1,234.50`, `1.234,50`, `1 234,50`,
 * `1'234.50`, `1234.5`, with a sign (`-`, `−`, accounting parentheses) and `%`. A written number
 * whose separators allow two readings (`1,234`: 1234 or 1.234) is kept under both, since the
 * document's convention is not known; a value matches either.
 */
export interface NumberOccurrence {
  /** Into the scanned text; includes a leading minus sign when there is one. */
  start: number;
  end: number;
  /** Canonical decimal of the absolute value: no grouping, no leading or trailing zeros. */
  magnitude: string;
  negative: boolean;
  /** The reading divides the written figure by 100 (`15%` read as 0.15). */
  percent: boolean;
}

interface Scan {
  groups: [number, number][];
  seps: string[];
  end: number;
}

const SEPARATORS = new Set([',', '.', ' ', '\u00a0', '\u202f', '\u2009', "'", '\u2019']);

function separatorClass(sep: string): string {
  if (sep === "'" || sep === '\u2019') return "'";
  if (sep === ',' || sep === '.') return sep;
  return ' ';
}

function digitsEnd(text: string, from: number): number {
  let j = from;
  while (j < text.length && isAsciiDigit(text.charCodeAt(j))) j++;
  return j;
}

function scanFrom(text: string, from: number): Scan {
  let j = digitsEnd(text, from);
  const groups: [number, number][] = [[from, j]];
  const seps: string[] = [];
  while (j + 1 < text.length && SEPARATORS.has(text[j]!) && isAsciiDigit(text.charCodeAt(j + 1))) {
    const groupEnd = digitsEnd(text, j + 1);
    seps.push(text[j]!);
    groups.push([j + 1, groupEnd]);
    j = groupEnd;
  }
  return { groups, seps, end: j };
}

/** Integer and fraction digits of each reading the separators allow. */
function readings(text: string, scan: Scan): [string, string][] {
  const { groups, seps } = scan;
  const digits = groups.map(([a, b]) => text.slice(a, b));
  if (seps.length === 0) return [[digits[0]!, '']];
  const found: [string, string][] = [];
  const classes = seps.map(separatorClass);
  const sameClass = (list: string[]) => list.every((c) => c === list[0]);
  const thousandsShaped = (upTo: number) =>
    digits[0]!.length <= 3 && digits.slice(1, upTo).every((d) => d.length === 3);

  if (sameClass(classes) && thousandsShaped(digits.length)) found.push([digits.join(''), '']);
  const last = classes[classes.length - 1]!;
  if (last === '.' || last === ',') {
    const others = classes.slice(0, -1);
    const ok =
      others.length === 0 ||
      (sameClass(others) && others[0] !== last && thousandsShaped(digits.length - 1));
    if (ok) found.push([digits.slice(0, -1).join(''), digits[digits.length - 1]!]);
  }
  return found;
}

export function canonicalDecimal(intDigits: string, fracDigits: string): string {
  let a = 0;
  while (a < intDigits.length - 1 && intDigits[a] === '0') a++;
  let b = fracDigits.length;
  while (b > 0 && fracDigits[b - 1] === '0') b--;
  const int = intDigits.slice(a) || '0';
  const frac = fracDigits.slice(0, b);
  return frac ? `${int}.${frac}` : int;
}

function hundredth(intDigits: string, fracDigits: string): string {
  const padded = intDigits.padStart(3, '0');
  return canonicalDecimal(padded.slice(0, -2), padded.slice(-2) + fracDigits);
}

/** Canonical decimal of a JSON number's absolute value (expanding exponent notation). */
export function magnitudeOf(value: number): string {
  const text = String(Math.abs(value));
  const e = text.indexOf('e');
  if (e < 0) {
    const dot = text.indexOf('.');
    return dot < 0
      ? canonicalDecimal(text, '')
      : canonicalDecimal(text.slice(0, dot), text.slice(dot + 1));
  }
  const mantissa = text.slice(0, e);
  const exponent = Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot < 0 ? mantissa.length : dot) + exponent;
  if (point <= 0) return canonicalDecimal('0', '0'.repeat(-point) + digits);
  if (point >= digits.length)
    return canonicalDecimal(digits + '0'.repeat(point - digits.length), '');
  return canonicalDecimal(digits.slice(0, point), digits.slice(point));
}

function isCurrencyCode(text: string, end: number): boolean {
  // `EUR1,234.50`: a number may follow three capitals directly, but not other letters (`A4`).
  if (end < 3) return false;
  for (let k = end - 3; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x41 || c > 0x5a) return false;
  }
  return end === 3 || !isWordChar(text[end - 4]!);
}

/** Calls `visit` for every reading of every number in `text`, in order of position. */
export function scanNumbers(text: string, visit: (occurrence: NumberOccurrence) => void): void {
  let i = 0;
  while (i < text.length) {
    if (!isAsciiDigit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const before = i > 0 ? text[i - 1]! : '';
    if (before !== '' && isWordChar(before) && !isCurrencyCode(text, i)) {
      i = digitsEnd(text, i);
      continue;
    }
    const scan = scanFrom(text, i);
    if (!misreadDigit(text, scan.end)) emitScan(text, scan, visit);
    i = scan.end;
  }
}

// Characters that join a number to what is next to it into one longer token: a date
// (`2026-02-08`, `08/02/2026`), a time (`10:30`), a range (`2024–2026`), an identifier
// (`INV-2026-0117`, `No.5`, `555-123-4567`). A number so joined is a piece of that token, not a
// quantity. `:` and the en dash join digits only: after a word they end a label (`Total:5`).
const JOINERS = new Set([...'-\u2010\u2011/\\._']);
const DIGIT_JOINERS = new Set([':', '\u2013']);

function joins(ch: string, neighbour: string): boolean {
  if (JOINERS.has(ch)) return isWordChar(neighbour);
  return DIGIT_JOINERS.has(ch) && isAsciiDigit(neighbour.charCodeAt(0));
}

/** The number starting at `start` is the tail of a longer token (`…-02`, `INV-2048`). */
function joinedBefore(text: string, start: number): boolean {
  return joins(text[start - 1] ?? ' ', text[start - 2] ?? ' ');
}

/** The number ending at `end` runs on into more digits (`2026-…`, `10:…`, `3/…`). */
function joinedAfter(text: string, end: number): boolean {
  return joins(text[end] ?? ' ', text[end + 1] ?? ' ') && isAsciiDigit(text.charCodeAt(end + 1));
}

/**
 * Whether `text.slice(start, end)` is part of a longer token at an edge that is a digit: the
 * `02` of `2026-02-08`, the `2048` of `INV-2048`. A value found there is not that value.
 */
export function insideLongerToken(text: string, start: number, end: number): boolean {
  return (
    (isAsciiDigit(text.charCodeAt(start)) && joinedBefore(text, start)) ||
    (isAsciiDigit(text.charCodeAt(end - 1)) && joinedAfter(text, end))
  );
}

/**
 * Groups written with spaces that are not a quantity nor a table row but one identifier: a
 * group with a leading zero (`DE89 3704 0044 0532`, `030 1234567`: a figure never starts with
 * 0 unless it is 0) or a run after a `+` (`+49 30 1234567`).
 */
function identifierRun(text: string, scan: Scan): boolean {
  if (text[scan.groups[0]![0] - 1] === '+') return true;
  for (let k = 0; k < scan.groups.length; k++) {
    const [a, b] = scan.groups[k]!;
    const startsPiece = k === 0 || separatorClass(scan.seps[k - 1]!) === ' ';
    if (startsPiece && b - a >= 2 && text[a] === '0') return true;
  }
  return false;
}

function emitScan(text: string, scan: Scan, visit: (o: NumberOccurrence) => void): void {
  const first = scan.groups[0]![0];
  const sign = signBefore(text, first, scan.end);
  const percent = percentAfter(text, scan.end);
  const openStart = !joinedBefore(text, sign === 'minus' ? first - 1 : first);
  const openEnd = !joinedAfter(text, scan.end);
  const emit = (sub: Scan, signed: boolean) => {
    // Only a number standing on its own is read: never one inside a longer token.
    if (sub.groups[0]![0] === first && !openStart) return;
    if (sub.end === scan.end && !openEnd) return;
    const start = signed && sign === 'minus' ? sub.groups[0]![0] - 1 : sub.groups[0]![0];
    const negative = signed && sign !== null;
    for (const [int, frac] of readings(text, sub)) {
      visit({
        start,
        end: sub.end,
        magnitude: canonicalDecimal(int, frac),
        negative,
        percent: false,
      });
      if (percent && sub.end === scan.end) {
        visit({ start, end: sub.end, magnitude: hundredth(int, frac), negative, percent: true });
      }
    }
  };
  const read = readings(text, scan).length > 0;
  if (read) emit(scan, true);
  const spaced = scan.seps.some((s) => separatorClass(s) === ' ');
  if (spaced && !identifierRun(text, scan)) {
    // `10 200` may be one number or two (a table row); keep both readings.
    let from = 0;
    for (let k = 0; k <= scan.seps.length; k++) {
      if (k === scan.seps.length || separatorClass(scan.seps[k]!) === ' ') {
        const groups = scan.groups.slice(from, k + 1);
        const piece: Scan = {
          groups,
          seps: scan.seps.slice(from, k),
          end: groups[groups.length - 1]![1],
        };
        // A piece its separators cannot read (`1.2.3`) is one token, not several numbers.
        if (readings(text, piece).length > 0) emit(piece, from === 0);
        from = k + 1;
      }
    }
  }
}

// Letters OCR reads in place of digits: `1,234.5O` is not 1,234.5 followed by a unit. Unit
// letters (`10g`, `30s`, `5m`) are left out, so that such figures still read.
const DIGIT_LOOKALIKES = new Set([...'OoIlSBZ']);

/** A lone digit-like letter glued to the number's end: the number was probably misread. */
function misreadDigit(text: string, end: number): boolean {
  const next = text[end];
  return next !== undefined && DIGIT_LOOKALIKES.has(next) && !isWordChar(text[end + 1] ?? ' ');
}

function signBefore(text: string, start: number, end: number): 'minus' | 'parentheses' | null {
  const before = text[start - 1];
  if ((before === '-' || before === '\u2212') && (start < 2 || !isWordChar(text[start - 2]!))) {
    return 'minus';
  }
  if (before === '(' && text[end] === ')') return 'parentheses';
  return null;
}

function percentAfter(text: string, end: number): boolean {
  return text[end] === '%' || (text[end] === ' ' && text[end + 1] === '%');
}

const CURRENCY_SYMBOLS = new Set([...'$€£¥₹₽₩₺₫₪₦₱฿₴₵¢']);

/** Strips a currency symbol or code (`$`, `EUR`, `US$`) from one end of a value. */
function stripCurrency(text: string, atStart: boolean): string {
  let s = text;
  const step = () => (atStart ? s.slice(1) : s.slice(0, -1));
  const edge = () => (atStart ? s[0] : s[s.length - 1]) ?? '';
  if (CURRENCY_SYMBOLS.has(edge())) s = step().trim();
  let letters = 0;
  while (letters < 4 && letters < s.length) {
    const c = (atStart ? s[letters] : s[s.length - 1 - letters])!.charCodeAt(0);
    if (c < 0x41 || c > 0x5a) break;
    letters++;
  }
  if (letters >= 1 && letters <= 3) {
    const rest = atStart ? s.slice(letters) : s.slice(0, -letters);
    const next = (atStart ? rest[0] : rest[rest.length - 1]) ?? '';
    if (next === '' || !isWordChar(next) || isAsciiDigit(next.charCodeAt(0))) s = rest.trim();
  }
  if (CURRENCY_SYMBOLS.has(edge())) s = step().trim();
  return s;
}

/**
 * The number a string value spells, when the whole string is one (with an optional currency
 * symbol or code, sign or `%`): every reading its separators allow.
 */
export function readNumberValue(value: string): { magnitudes: string[]; negative: boolean } | null {
  let s = value.trim();
  if (s.length === 0 || s.length > 64) return null;
  s = stripCurrency(stripCurrency(s, true), false);
  let negative = false;
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (s[0] === '-' || s[0] === '\u2212' || s[0] === '+') {
    negative = s[0] !== '+';
    s = s.slice(1).trim();
  }
  s = stripCurrency(s, true);
  if (s.endsWith('%')) s = s.slice(0, -1).trim();
  if (s.length === 0 || !isAsciiDigit(s.charCodeAt(0))) return null;
  const scan = scanFrom(s, 0);
  if (scan.end !== s.length) return null;
  const magnitudes = readings(s, scan).map(([int, frac]) => canonicalDecimal(int, frac));
  return magnitudes.length > 0 ? { magnitudes, negative } : null;
}
