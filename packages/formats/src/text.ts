import { FORMATS, type FormatName } from '@xt/contract';
import { looksLikeHtml } from './sniff.ts';

/** How much of a text file its shape is judged by. */
export const TEXT_SAMPLE_BYTES = 64 * 1024;

/** Headers a message almost always has; two of them in the opening block make it one. */
const MESSAGE_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'received',
  'return-path',
  'content-type',
  'reply-to',
  'delivered-to',
  'x-mailer',
]);

/** A header line: a field name of printable characters but `:`, then `:`. */
const HEADER_LINE = /^[!-9;-~]+:/;

/**
 * An RFC 5322 message: from its first line, a block of header lines (folded lines continue
 * with a space or tab) ending at a blank line, with From or at least two of the usual headers.
 */
function looksLikeMessage(lines: string[]): boolean {
  const seen = new Set<string>();
  let i = 0;
  // mbox exports start with a "From sender date" separator line.
  if (lines[0]?.startsWith('From ')) i = 1;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') break;
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (seen.size === 0) return false;
      continue;
    }
    if (!HEADER_LINE.test(line)) return false;
    seen.add(line.slice(0, line.indexOf(':')).toLowerCase());
  }
  const known = [...seen].filter((h) => MESSAGE_HEADERS.has(h));
  return (seen.has('from') && known.length >= 2) || known.length >= 3;
}

/**
 * A message whose body is 8-bit text in a charset other than UTF-8 (Latin-1, windows-1251, as
 * `Content-Transfer-Encoding: 8bit` allows): not UTF-8, but its header block is ASCII, as
 * RFC 5322 has it, and that block says it is a message.
 */
export function isEightBitMessage(head: Buffer): boolean {
  if (head.includes(0)) return false;
  return looksLikeMessage(head.toString('latin1').split(/\r?\n/, 200));
}

/** The text formats a name may choose, by the registry's extensions (FORMATS). */
const NAMED_TEXT_FORMATS = ['md', 'html', 'csv', 'tsv'] as const satisfies readonly FormatName[];

function namedTextFormat(name: string): FormatName | undefined {
  const lower = name.toLowerCase();
  return NAMED_TEXT_FORMATS.find((f) =>
    (FORMATS[f].extensions as readonly string[]).some((ext) => lower.endsWith(ext)),
  );
}

/** Records judged for a table, at most. */
const RECORDS = 200;

/**
 * The text's first records: lines, except that a line break inside double quotes belongs to its
 * field (RFC 4180), as spreadsheet programs write a cell of several lines.
 */
function records(text: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length && out.length < RECORDS; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === '\n' && !quoted) {
      out.push(text.slice(start, i > start && text[i - 1] === '\r' ? i - 1 : i));
      start = i + 1;
    }
  }
  if (out.length < RECORDS) out.push(text.slice(start));
  return out;
}

/** Counts a delimiter outside double quotes, as RFC 4180 quotes fields. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted) n++;
  }
  return n;
}

/**
 * Delimited rows: the same positive number of `delimiter`s on every line of the sample (its
 * last line may be cut short by the sample's end), over three rows or more, or over two with at
 * least three columns (two lines of prose with a comma each are not a table).
 */
function delimitedBy(text: string, delimiter: string, complete: boolean): boolean {
  const lines = records(text);
  const rows = lines.filter((l) => l.trim() !== '');
  const judged = complete ? rows : rows.slice(0, -1);
  if (judged.length < 2) return false;
  const first = countOutsideQuotes(judged[0]!, delimiter);
  if (first === 0 || (judged.length < 3 && first < 2)) return false;
  return judged.every((row) => countOutsideQuotes(row, delimiter) === first);
}

/** Delimiters counted outside double quotes on each of the sample's non-empty records. */
function countsPerRow(text: string, delimiter: string): number[] {
  return records(text)
    .filter((l) => l.trim() !== '')
    .map((l) => countOutsideQuotes(l, delimiter));
}

/**
 * The field delimiter of a CSV file: a semicolon where every row has the same number of them
 * and commas do not make a table (as European spreadsheets write CSV), else a comma. Rows of
 * unequal length make neither a table by that rule; then the semicolon is chosen where more rows
 * have more semicolons than commas, since a ragged European file is still one.
 */
export function csvDelimiter(sample: string, complete: boolean): ',' | ';' {
  const text = sample.replace(/^\uFEFF/, '');
  if (delimitedBy(text, ',', complete)) return ',';
  if (delimitedBy(text, ';', complete)) return ';';
  const commas = countsPerRow(text, ',');
  const semicolons = countsPerRow(text, ';');
  let vote = 0;
  commas.forEach((c, i) => {
    vote += Math.sign(semicolons[i]! - c);
  });
  return vote > 0 ? ';' : ',';
}

/**
 * Markdown's YAML front matter: a `---` line first, a closing `---` or `...` line further on, and
 * a `key:` line opening what is between (a thematic break followed by prose is not one).
 */
function hasFrontMatter(lines: string[]): boolean {
  if (lines[0]?.trimEnd() !== '---') return false;
  const close = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
  const first = lines.slice(1, close).find((l) => l.trim() !== '' && !l.startsWith('#'));
  return close > 0 && first !== undefined && /^[\w"'][^:]*:(?:\s|$)/.test(first);
}

function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/**
 * The format of a UTF-8 text by its shape: HTML, a message, JSON, Markdown with a front matter,
 * tab- or comma-separated rows; else Markdown, HTML, CSV or TSV when the name says so, plain text otherwise. `complete`
 * says whether the sample is the whole file (else its last line is not judged, and JSON is not
 * parsed).
 */
export function textFormatOf(
  sample: string,
  opts: { complete: boolean; name?: string | undefined; table?: boolean | undefined },
): FormatName {
  const text = sample.replace(/^\uFEFF/, '');
  if (looksLikeHtml(text)) return 'html';
  const lines = text.split(/\r?\n/, 200);
  if (looksLikeMessage(lines)) return 'eml';
  if (opts.complete ? looksLikeJson(text) : /^\s*[[{]\s*["[{]/.test(text)) return 'json';
  if (hasFrontMatter(lines)) return 'md';
  if (delimitedBy(text, '\t', opts.complete)) return 'tsv';
  if (delimitedBy(text, ',', opts.complete) || delimitedBy(text, ';', opts.complete)) return 'csv';
  // Among text formats the name may choose how text that has no other shape is read: nothing is
  // trusted on it, only parsed differently. HTML that opens with a tag outside the sniffing
  // list (`<pre>`, `<section>`) is still HTML when it is called so, and a file called CSV is a
  // table even when its rows differ in length (a title line, a total row), which the shape
  // rule above cannot tell from prose.
  const named = opts.name ? namedTextFormat(opts.name) : undefined;
  if (named) return named;
  if (opts.table) return raggedTable(text, opts.complete) ?? 'txt';
  return 'txt';
}

/**
 * Rows of unequal length, asked to be read as a table (a spreadsheet sent with no name to tell
 * it by): a delimiter on most rows, two at least. Prose with commas could pass, which is why
 * only a client that asked for a spreadsheet gets this reading.
 */
function raggedTable(text: string, complete: boolean): 'csv' | 'tsv' | undefined {
  const judged = (delimiter: string) => {
    const rows = countsPerRow(text, delimiter);
    return complete ? rows : rows.slice(0, -1);
  };
  for (const [delimiter, format] of [
    ['\t', 'tsv'],
    [',', 'csv'],
    [';', 'csv'],
  ] as const) {
    const rows = judged(delimiter);
    const delimited = rows.filter((n) => n > 0).length;
    if (delimited >= 2 && delimited * 2 >= rows.length) return format;
  }
  return undefined;
}
