import type { Behaviour, RecordedRequest } from './types.ts';

/*
 * What a model does with the parts of a request the service adds for grounded output
 * (docs/citations.md): a `{ output, quotes }` answer with verbatim quotes from the source,
 * invented values when told to, and continuing a list "after item N" when asked.
 */

type Json = Record<string, unknown>;

/** The request asks for quotes beside the output (`{ output, quotes }`, both required). */
export function asksForQuotes(schema: unknown): boolean {
  if (!isRecord(schema) || !isRecord(schema.properties)) return false;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return 'output' in schema.properties && 'quotes' in schema.properties && required.length === 2;
}

/** The list to continue and the items already received, when the request asks for the rest. */
export function continuationOf(
  request: RecordedRequest,
): { pointer: string; received: number } | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return undefined;
  const match = /inside (?:the top-level list \(""\)|the list at "([^"]*)") after (\d+) items/.exec(
    last.text,
  );
  if (!match) return undefined;
  return { pointer: match[1] ?? '', received: Number(match[2]) };
}

/**
 * The answer to send: the full output with invented values set, cut down to what a
 * continuation asks for, wrapped with quotes when the request wants them.
 */
export function shapeAnswer(output: unknown, request: RecordedRequest, behaviour: Behaviour) {
  let answer = structuredClone(output);
  for (const { pointer, value } of behaviour.invent ?? []) answer = setAt(answer, pointer, value);
  const continuation = continuationOf(request);
  if (continuation) answer = rest(answer, continuation.pointer, continuation.received);
  if (!asksForQuotes(request.schema)) return answer;
  const source = sourceText(request.text);
  const quotes = quotesFor(answer, source, '');
  for (const { pointer, quote } of behaviour.invent ?? []) {
    if (valueAt(answer, pointer) !== undefined) quotes.set(pointer, quote ?? null);
  }
  return { output: answer, quotes: mirror(answer, '', quotes) };
}

/** What was sent between <source> and </source>. */
function sourceText(text: string): string {
  const start = text.lastIndexOf('<source>');
  const end = text.lastIndexOf('</source>');
  return start >= 0 && end > start ? text.slice(start + '<source>'.length, end) : '';
}

/** The items after `received` of the list at `pointer`; fields before the list null. */
function rest(answer: unknown, pointer: string, received: number): unknown {
  if (pointer === '') return Array.isArray(answer) ? answer.slice(received) : answer;
  const [head = '', ...tail] = pointer.slice(1).split('/');
  const key = unescape(head);
  if (!isRecord(answer)) return answer;
  const out: Json = {};
  let passed = false;
  for (const [name, value] of Object.entries(answer)) {
    if (name === key) {
      passed = true;
      out[name] = rest(value, tail.length > 0 ? `/${tail.join('/')}` : '', received);
    } else out[name] = passed ? value : null;
  }
  return out;
}

/** Each value's quote: the line of the source where it is written, or null. */
function quotesFor(
  value: unknown,
  source: string,
  at: string,
  out = new Map<string, string | null>(),
) {
  if (Array.isArray(value)) value.forEach((v, i) => quotesFor(v, source, `${at}/${i}`, out));
  else if (isRecord(value))
    for (const [k, v] of Object.entries(value)) quotesFor(v, source, `${at}/${escape(k)}`, out);
  else if (typeof value === 'string' || typeof value === 'number')
    out.set(at, quoteOf(value, source));
  return out;
}

const MAX_QUOTE = 200;

function quoteOf(value: string | number, source: string): string | null {
  for (const written of spellings(value)) {
    const at = source.indexOf(written);
    if (at < 0 || written === '') continue;
    const lineStart = source.lastIndexOf('\n', at) + 1;
    const lineEnd = source.indexOf('\n', at + written.length);
    const line = source.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
    if (line.length <= MAX_QUOTE) return line.trim();
    const from = Math.max(lineStart, at - 40);
    return source.slice(from, Math.min(from + MAX_QUOTE, at + written.length + 40)).trim();
  }
  return null;
}

// Made once: `toLocaleString` builds a formatter on every call, and a long table's answer has
// thousands of numbers (2.6 s of the test process's CPU for 6,000 rows).
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 10 });
const GROUPED_CENTS = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** How a value may be written in a source: numbers as plain, with two decimals, grouped. */
function spellings(value: string | number): string[] {
  if (typeof value === 'string') return [value];
  return [String(value), value.toFixed(2), GROUPED.format(value), GROUPED_CENTS.format(value)];
}

/** The quotes in the shape of the output: each scalar replaced by its quote or null. */
function mirror(value: unknown, at: string, quotes: Map<string, string | null>): unknown {
  if (Array.isArray(value)) return value.map((v, i) => mirror(v, `${at}/${i}`, quotes));
  if (isRecord(value))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, mirror(v, `${at}/${escape(k)}`, quotes)]),
    );
  return quotes.get(at) ?? null;
}

function setAt(root: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const tokens = pointer.slice(1).split('/').map(unescape);
  const last = tokens.pop() as string;
  let node = root;
  for (const token of tokens)
    node = isRecord(node) || Array.isArray(node) ? (node as Json)[token] : undefined;
  if (isRecord(node) || Array.isArray(node)) (node as Json)[last] = value;
  return root;
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointer.slice(1).split('/').map(unescape)) {
    if (pointer === '') break;
    node = isRecord(node) || Array.isArray(node) ? (node as Json)[token] : undefined;
  }
  return node;
}

const escape = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');
const unescape = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~');

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
