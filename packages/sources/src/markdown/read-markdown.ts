import { parse } from 'yaml';
import type { PreparedSource } from '@xt/contract';
import { decodeUtf8, prepareText } from '../text.ts';

/** The lines that open and close a front matter block (Jekyll's and Hugo's `---`, YAML's `...`). */
const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * The YAML block at the very start of the text and the body after it; undefined when the text
 * opens with no block (or one that is never closed, which is then a thematic break).
 */
export function splitFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const opening = OPEN.exec(text);
  if (!opening) return undefined;
  let at = opening[0].length;
  while (at <= text.length) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    if (CLOSE.test(text.slice(at, end).replace(/\r$/, '')))
      return {
        yaml: text.slice(opening[0].length, at),
        body: newline === -1 ? '' : text.slice(newline + 1),
      };
    if (newline === -1) return undefined;
    at = newline + 1;
  }
  return undefined;
}

/** A value as one line the model reads: scalars as written, a list of them joined, else JSON. */
function asLine(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const scalars = Array.isArray(value) && value.every((v) => typeof v !== 'object');
  return scalars ? value.map(String).join(', ') : JSON.stringify(value);
}

/**
 * The front matter's keys and values, or null when it is not a YAML mapping (a syntax error, a
 * duplicate key, a list or a scalar). YAML 1.2's core schema: dates stay as they are written.
 */
export function frontMatterMeta(yaml: string): Record<string, string> | null {
  let parsed: unknown;
  try {
    parsed = parse(yaml, { schema: 'core', uniqueKeys: true, maxAliasCount: 100 });
  } catch {
    return null;
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const meta: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const line = asLine(value);
    if (line !== undefined) meta[key.replace(/\s+/g, ' ')] = line;
  }
  return meta;
}

/**
 * An uploaded Markdown file (the `markdown` kind, docs/sources.md#markdown): its YAML front
 * matter becomes the source's metadata, lines the model reads at the head of the source as it
 * reads a webpage's title, and its body is read as text, headings and tables as written. Front
 * matter that is not a YAML mapping is not metadata: the file is read whole as the `text` kind
 * reads it. With `citations` values are located by offsets into the whole file as decoded,
 * front matter included, so that a value taken from it is cited there.
 */
export function prepareMarkdownBytes(bytes: Buffer, citations = false): PreparedSource {
  const text = decodeUtf8(bytes);
  const block = splitFrontMatter(text);
  const meta = block ? frontMatterMeta(block.yaml) : null;
  const prepared = meta && block ? { ...prepareText(block.body), meta } : prepareText(text);
  return citations ? { ...prepared, grounding: { kind: 'text', content: text } } : prepared;
}
