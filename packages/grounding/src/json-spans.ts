import { escapeToken } from './pointer.ts';

/**
 * Where each leaf of a JSON text is spelled, by JSON Pointer: `[start, end)` into the text, from
 * the value's first character through the character that ends it (a string's closing quote, the
 * delimiter after a number), since where a value stops is part of writing it (1234.5 or 1234.56).
 */
export interface LeafSpan {
  pointer: string;
  start: number;
  end: number;
}

const MAX_DEPTH = 1000;

/**
 * The leaves of a JSON text with their positions, in document order (`""` from its opening
 * quote). `null` is skipped.
 * Stops quietly where the text stops being JSON (a cut-off answer keeps its complete leaves).
 */
export function leafSpans(text: string): LeafSpan[] {
  const spans: LeafSpan[] = [];
  let pos = 0;

  const skipWhitespace = () => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      pos++;
    }
  };
  /** Past a string starting at `pos`; returns its end, or -1 when unterminated. */
  const skipString = (): number => {
    let i = pos + 1;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) return i + 1;
      else i++;
    }
    return -1;
  };
  class Stop extends Error {}
  const parseKey = (raw: string): string => {
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw new Stop();
    }
  };
  const expect = (ch: string) => {
    skipWhitespace();
    if (text[pos] !== ch) throw new Stop();
    pos++;
  };

  const value = (pointer: string, depth: number): void => {
    if (depth > MAX_DEPTH) throw new Stop();
    skipWhitespace();
    const c = text[pos];
    if (c === '{') {
      pos++;
      skipWhitespace();
      if (text[pos] === '}') {
        pos++;
        return;
      }
      for (;;) {
        skipWhitespace();
        if (text[pos] !== '"') throw new Stop();
        const end = skipString();
        if (end < 0) throw new Stop();
        const key = parseKey(text.slice(pos, end));
        pos = end;
        expect(':');
        value(`${pointer}/${escapeToken(key)}`, depth + 1);
        skipWhitespace();
        if (text[pos] === ',') pos++;
        else return expect('}');
      }
    }
    if (c === '[') {
      pos++;
      skipWhitespace();
      if (text[pos] === ']') {
        pos++;
        return;
      }
      for (let i = 0; ; i++) {
        value(`${pointer}/${i}`, depth + 1);
        skipWhitespace();
        if (text[pos] === ',') pos++;
        else return expect(']');
      }
    }
    if (c === '"') {
      const start = pos;
      const end = skipString();
      if (end < 0) throw new Stop();
      pos = end;
      spans.push({ pointer, start: end - start === 2 ? start : start + 1, end });
      return;
    }
    const start = pos;
    while (pos < text.length && !',]} \n\r\t'.includes(text[pos]!)) pos++;
    if (pos === start) throw new Stop();
    if (text.slice(start, pos) !== 'null')
      spans.push({ pointer, start, end: Math.min(pos + 1, text.length) });
  };

  try {
    value('', 0);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  return spans;
}
