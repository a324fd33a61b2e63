/*
 * The JSON of a model's answer, wherever the model put it. OpenAI with `json_schema` answers
 * the JSON alone; a server that ignores response_format, or a `prompt`-mode model, may wrap it
 * in a Markdown fence after a sentence or write it inside prose. Every reading here is by
 * position, never by a backtracking pattern, and each character is looked at a bounded number
 * of times, so a hostile answer costs linear time (docs/security.md).
 */

/**
 * `at`: where in the text the JSON was read, when not the whole of it (a fence's body, a span
 * of prose), so token log-probabilities can be taken from the tokens that wrote it.
 */
export type JsonAnswer =
  { ok: true; value: unknown; at?: { start: number; end: number } } | { ok: false; error: string };

/** Parse attempts on fenced blocks or bracketed spans, at most: the rest is not looked at. */
const MAX_ATTEMPTS = 64;

const FENCE = '```';

/**
 * The answer's JSON: the whole text; else the first ```json (or bare ```) fenced block that
 * parses; else the first balanced top-level object (or, without one, array) in the prose. The
 * error is the whole text's, as the repair request tells the model what was wrong with it.
 */
export function readJsonAnswer(text: string): JsonAnswer {
  const whole = parse(text);
  if (whole.ok) return whole;
  const found = wholeFence(text) ?? firstFence(text) ?? firstInProse(text);
  return found ?? whole;
}

function parse(text: string, start?: number): JsonAnswer {
  try {
    const value = JSON.parse(text) as unknown;
    return start === undefined
      ? { ok: true, value }
      : { ok: true, value, at: { start, end: start + text.length } };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A fence around the whole answer, cut at its first and last lines, so a body whose strings
 * hold ``` themselves still reads as before the other readings existed.
 */
function wholeFence(text: string): JsonAnswer | undefined {
  const trimmed = text.trim();
  const offset = text.indexOf(trimmed);
  if (!trimmed.startsWith(FENCE) || !trimmed.endsWith(FENCE) || trimmed.length < 6) return;
  const firstLine = trimmed.indexOf('\n');
  const lastLine = trimmed.lastIndexOf('\n');
  if (firstLine === -1 || lastLine <= firstLine) return;
  if (!isJsonInfo(trimmed.slice(3, firstLine))) return;
  if (trimmed.slice(lastLine + 1).trim() !== FENCE) return;
  const body = parse(trimmed.slice(firstLine + 1, lastLine), offset + firstLine + 1);
  return body.ok ? body : undefined;
}

/** The first fenced block, anywhere in the text, whose info is json or empty and that parses. */
function firstFence(text: string): JsonAnswer | undefined {
  let from = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const open = text.indexOf(FENCE, from);
    if (open === -1) return;
    const lineEnd = text.indexOf('\n', open + 3);
    if (lineEnd === -1) return;
    const close = text.indexOf(FENCE, lineEnd + 1);
    if (close === -1) return;
    if (isJsonInfo(text.slice(open + 3, lineEnd))) {
      const body = parse(text.slice(lineEnd + 1, close), lineEnd + 1);
      if (body.ok) return body;
    }
    // Past this block's closing fence, so a fence is never read as both an end and a start.
    from = close + 3;
  }
  return;
}

function isJsonInfo(info: string): boolean {
  const word = info.trim().toLowerCase();
  return word === '' || word === 'json';
}

/**
 * The first balanced top-level `{…}` that parses, else the first such `[…]`: a bracket counter
 * that knows JSON strings, so a brace inside a quoted value does not count. An array is taken
 * only when no object follows, since prose carries `[1]`-style marks more often than a model
 * answers a bare list. A bracket left open to the end (a cut answer) yields nothing from it.
 */
function firstInProse(text: string): JsonAnswer | undefined {
  let firstArray: JsonAnswer | undefined;
  let attempts = 0;
  let depth = 0;
  let start = -1;
  let inString = false;
  const closers: string[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (depth === 0) {
      if (char === '{' || char === '[') {
        start = i;
        depth = 1;
        closers.length = 0;
        closers.push(char === '{' ? '}' : ']');
      }
      continue;
    }
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      depth += 1;
      closers.push(char === '{' ? '}' : ']');
    } else if (char === '}' || char === ']') {
      if (closers.pop() !== char) {
        // Mismatched: not JSON; look again from here at the top level.
        depth = 0;
        continue;
      }
      depth -= 1;
      if (depth > 0) continue;
      attempts += 1;
      const span = parse(text.slice(start, i + 1), start);
      if (span.ok) {
        if (text[start] === '{') return span;
        firstArray ??= span;
      }
      if (attempts >= MAX_ATTEMPTS) break;
    }
  }
  return firstArray;
}
