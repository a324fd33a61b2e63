import { TextDecoder } from 'node:util';
import { ExtractionFailure, type PreparedSource } from '@xt/contract';

/** JavaScript's `\s`, one character at a time. */
const isSpace = (ch: string): boolean => ch.trim() === '';

/**
 * The text cut at blank lines, each cut made only where more text follows: what
 * `text.split(/\n\s*\n(?=\s*\S)/)` gives, by one pass over the text. That pattern backtracks
 * cubically on a text ending in blank lines (4,000 of them took 17 s), so it is a scan instead.
 */
export function paragraphs(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let newline = text.indexOf('\n');
  while (newline !== -1) {
    // The whitespace run after this newline, and the last newline in it.
    let next = newline + 1;
    let lastNewline = -1;
    while (next < text.length && isSpace(text[next] ?? '')) {
      if (text[next] === '\n') lastNewline = next;
      next++;
    }
    if (next >= text.length) break;
    if (lastNewline !== -1) {
      out.push(text.slice(start, newline));
      start = lastNewline + 1;
    }
    newline = text.indexOf('\n', next);
  }
  out.push(text.slice(start));
  return out;
}

/**
 * Plain text goes to the model as it is, split at blank lines into sections so that a text
 * longer than one call's budget can be chunked at paragraph boundaries.
 */
export function prepareText(text: string): PreparedSource {
  const sections = paragraphs(text);
  if (sections.length <= 1) return { parts: [{ kind: 'text', text, unit: 1 }] };
  // Group paragraphs into sections of ~8k characters: enough for chunking, few parts otherwise.
  const parts: PreparedSource['parts'] = [];
  let current = '';
  for (const section of sections) {
    if (current && current.length + section.length > 8_000) {
      parts.push({ kind: 'text', text: current, unit: parts.length + 1 });
      current = '';
    }
    current = current ? `${current}\n\n${section}` : section;
  }
  if (current) parts.push({ kind: 'text', text: current, unit: parts.length + 1 });
  return { parts };
}

/**
 * Bytes of a text kind (text, Markdown) as the text they hold, failing SOURCE_UNREADABLE when
 * they are not UTF-8. A file's byte-order mark is not text and is dropped, unless `keepBom`.
 */
export function decodeUtf8(bytes: Uint8Array, keepBom = false): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: keepBom }).decode(bytes);
  } catch {
    throw new ExtractionFailure('SOURCE_UNREADABLE', 'The uploaded file is not UTF-8 text.');
  }
}

/**
 * A text source's bytes as model input (the prep processes run this): typed in (`contentType`
 * null) or uploaded. The API checked they are UTF-8; HTML is read as a webpage's text would be,
 * by `htmlToMarkdown`, without running anything in it. With `citations` the text is kept to
 * locate values in (docs/citations.md): typed text and an uploaded text file by offsets into the
 * text as decoded here, which is what the model read too; an uploaded HTML file's Markdown by
 * quote only, since offsets into text the service made would index nothing the client has.
 */
export function prepareTextBytes(
  bytes: Buffer,
  contentType: string | null,
  htmlToMarkdown: (html: string) => string,
  citations = false,
): PreparedSource {
  // Typed text is kept whole, so that offsets index the record's `source` as the client sent it.
  const text = decodeUtf8(bytes, contentType === null);
  if (contentType !== 'text/html') {
    const prepared = prepareText(text);
    return citations ? { ...prepared, grounding: { kind: 'text', content: text } } : prepared;
  }
  const markdown = htmlToMarkdown(text);
  if (markdown.trim() === '')
    throw new ExtractionFailure('SOURCE_UNREADABLE', 'The uploaded HTML file has no text.');
  const prepared = prepareText(markdown);
  return citations ? { ...prepared, grounding: { kind: 'plain', text: markdown } } : prepared;
}
