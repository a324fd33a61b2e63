/**
 * The marked-content sequences a page's content stream begins (`BMC`, `BDC`), in the order it
 * begins them, each with its `/ActualText` when it has one: what pdf.js's text content leaves
 * out (actual-text.ts). A lexer for content streams only, not a PDF parser: operands are kept
 * as far as `BDC` and `Do` need them, everything else is skipped.
 */

/** A `BDC` whose properties are named, to be found in the resources' `/Properties`. */
export type Mark = { actualText: string | null } | { properties: string };

/** What the walker does with what the lexer finds: a form XObject painted, a mark begun. */
export interface MarkSink {
  mark(mark: Mark): void;
  paint(xobject: string): void;
}

type Operand =
  | { kind: 'name'; value: string }
  | { kind: 'string'; bytes: number[] }
  | { kind: 'dict'; entries: Map<string, Operand> }
  | { kind: 'other' };

type Token = Operand | { kind: 'keyword'; value: string } | { kind: 'close' } | { kind: 'end' };

const isSpace = (c: number) => c === 0 || c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
/** `( ) < > [ ] { } / %` end a name, a number or a keyword. */
const isDelimiter = (c: number) =>
  c === 40 || c === 41 || c === 60 || c === 62 || c === 91 || c === 93 || c === 123 || c === 125;
const isRegular = (c: number) => !isSpace(c) && !isDelimiter(c) && c !== 47 && c !== 37;

/** A PDF text string: UTF-16BE with its byte-order mark, UTF-8 with one, else PDFDocEncoding. */
export function decodeTextString(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  // PDFDocEncoding is Latin-1 but for a few punctuation marks, which ActualText seldom holds.
  return Buffer.from(bytes).toString('latin1');
}

class Lexer {
  i = 0;
  // A plain field, not a parameter property: prep threads load this file with Node's type
  // stripping, which has no parameter properties.
  private readonly s: Uint8Array;
  constructor(s: Uint8Array) {
    this.s = s;
  }

  private skipSpace(): void {
    const s = this.s;
    while (this.i < s.length) {
      if (isSpace(s[this.i]!)) this.i++;
      else if (s[this.i] === 37)
        while (this.i < s.length && s[this.i] !== 10 && s[this.i] !== 13) this.i++;
      else break;
    }
  }

  next(): Token {
    this.skipSpace();
    const s = this.s;
    if (this.i >= s.length) return { kind: 'end' };
    const c = s[this.i]!;
    if (c === 47) return { kind: 'name', value: this.regular(this.i + 1) };
    if (c === 40) return this.literal();
    if (c === 60 && s[this.i + 1] === 60) {
      this.i += 2;
      return this.dict();
    }
    if (c === 60) return this.hex();
    if (c === 91) {
      this.i++;
      while (!['close', 'end'].includes(this.next().kind));
      return { kind: 'other' };
    }
    if (c === 93 || c === 62) {
      this.i += c === 62 && s[this.i + 1] === 62 ? 2 : 1;
      return { kind: 'close' };
    }
    if (!isRegular(c)) {
      this.i++;
      return { kind: 'other' };
    }
    const word = this.regular(this.i);
    return /^[-+.\d]/.test(word) || ['true', 'false', 'null'].includes(word)
      ? { kind: 'other' }
      : { kind: 'keyword', value: word };
  }

  private regular(from: number): string {
    let end = from;
    while (end < this.s.length && isRegular(this.s[end]!)) end++;
    const raw = Buffer.from(this.s.subarray(from, end)).toString('latin1');
    this.i = end;
    return raw.replace(/#([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }

  private literal(): Operand {
    const s = this.s;
    const bytes: number[] = [];
    let depth = 1;
    this.i++;
    while (this.i < s.length) {
      const c = s[this.i++]!;
      if (c === 92) {
        const e = s[this.i++];
        if (e === undefined) break;
        const octal = /[0-7]/.test(String.fromCharCode(e));
        if (octal) {
          let v = e - 48;
          for (let k = 0; k < 2 && /[0-7]/.test(String.fromCharCode(s[this.i] ?? 0)); k++)
            v = v * 8 + s[this.i++]! - 48;
          bytes.push(v & 0xff);
        } else if (e === 13 || e === 10) {
          if (e === 13 && s[this.i] === 10) this.i++;
        } else bytes.push({ 110: 10, 114: 13, 116: 9, 98: 8, 102: 12 }[e] ?? e);
      } else if (c === 40) {
        depth++;
        bytes.push(c);
      } else if (c === 41) {
        if (--depth === 0) break;
        bytes.push(c);
      } else bytes.push(c);
    }
    return { kind: 'string', bytes };
  }

  private hex(): Operand {
    const end = this.s.indexOf(62, this.i);
    const stop = end < 0 ? this.s.length : end;
    const digits = Buffer.from(this.s.subarray(this.i + 1, stop))
      .toString('latin1')
      .replace(/[^0-9a-f]/gi, '');
    this.i = stop + 1;
    const padded = digits.length % 2 ? `${digits}0` : digits;
    return { kind: 'string', bytes: [...Buffer.from(padded, 'hex')] };
  }

  private dict(): Operand {
    const entries = new Map<string, Operand>();
    for (;;) {
      const key = this.next();
      if (key.kind === 'close' || key.kind === 'end') break;
      if (key.kind !== 'name') continue;
      const value = this.next();
      if (value.kind === 'close' || value.kind === 'end') break;
      if (value.kind !== 'keyword') entries.set(key.value, value);
    }
    return { kind: 'dict', entries };
  }

  /** Past an inline image's data: from after `ID` and one white-space byte to an `EI` word. */
  skipInlineImage(): void {
    const s = this.s;
    this.i++;
    for (; this.i + 1 < s.length; this.i++) {
      if (s[this.i] !== 69 || s[this.i + 1] !== 73) continue;
      const before = s[this.i - 1];
      const after = s[this.i + 2];
      if ((before === undefined || isSpace(before)) && (after === undefined || isSpace(after))) {
        this.i += 2;
        return;
      }
    }
    this.i = s.length;
  }
}

/** Reads one content stream, telling `sink` of each mark begun and each XObject painted. */
export function scanContent(stream: Uint8Array, sink: MarkSink): void {
  const lexer = new Lexer(stream);
  let operands: Operand[] = [];
  for (;;) {
    const token = lexer.next();
    if (token.kind === 'end') return;
    if (token.kind === 'close') continue;
    if (token.kind !== 'keyword') {
      operands.push(token);
      continue;
    }
    const op = token.value;
    if (op === 'BMC') sink.mark({ actualText: null });
    else if (op === 'BDC') sink.mark(markOf(operands.at(-1)));
    else if (op === 'Do') {
      const name = operands.at(-1);
      if (name?.kind === 'name') sink.paint(name.value);
    } else if (op === 'ID') lexer.skipInlineImage();
    operands = [];
  }
}

function markOf(properties: Operand | undefined): Mark {
  if (properties?.kind === 'name') return { properties: properties.value };
  if (properties?.kind !== 'dict') return { actualText: null };
  const text = properties.entries.get('ActualText');
  return {
    actualText: text?.kind === 'string' ? decodeTextString(Uint8Array.from(text.bytes)) : null,
  };
}
