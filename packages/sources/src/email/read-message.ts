import { ExtractionFailure, FORMATS, type FormatName } from '@xt/contract';
import { detectFormat } from '@xt/formats';
import type { ParsedAttachment, ParsedMessage, ReadAttachment, ReadMessage } from './message.ts';
import { readEml, type HtmlReader } from './read-eml.ts';
import { readMsg } from './read-msg.ts';

/** Messages attached inside messages are read this deep; deeper ones are listed, not read. */
export const MAX_EMAIL_DEPTH = 3;

export interface ReadLimits {
  /** MIME parts (and attachments) of the whole message, nested messages included. */
  maxParts: number;
  html: HtmlReader;
}

/** A file name as a part's name: one path segment, never empty. */
function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return name.replace(/[/\\\u0000-\u001f]+/g, '_').trim();
}

/** `name`, or `name (2).ext` when a sibling part has it already. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

const TEXT_LABELS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/**
 * A text attachment in another charset than UTF-8, as UTF-8: the message says which charset its
 * text parts are in, and the text reader takes UTF-8 only. Anything else is kept as it is.
 */
function asUtf8(a: ParsedAttachment): Uint8Array {
  if (!a.charset || !a.declaredType?.startsWith('text/')) return a.bytes;
  if (TEXT_LABELS.has(a.charset.toLowerCase())) return a.bytes;
  try {
    return new TextEncoder().encode(new TextDecoder(a.charset, { fatal: true }).decode(a.bytes));
  } catch {
    return a.bytes;
  }
}

function parse(bytes: Uint8Array, format: 'eml' | 'msg', limits: ReadLimits) {
  return format === 'eml' ? readEml(bytes, limits) : Promise.resolve(readMsg(bytes, limits));
}

/** Counts the parts of the whole message, nested ones included, against the bound. */
class PartBudget {
  used = 0;
  // A plain field, not a parameter property: prep processes load this file with Node's own type
  // stripping, which only erases types.
  readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  take(n: number): void {
    this.used += n;
    if (this.used > this.max)
      throw new ExtractionFailure(
        'SOURCE_TOO_LARGE',
        `The message has more than ${this.max} parts (attachments and nested messages, at any depth); at most ${this.max} are read (MAX_EMAIL_PARTS).`,
      );
  }
}

async function readAttachments(
  parsed: ParsedMessage,
  depth: number,
  limits: ReadLimits,
  budget: PartBudget,
): Promise<ReadAttachment[]> {
  budget.take(parsed.attachments.length);
  const taken = new Set<string>(depth === 0 ? ['body'] : []);
  const out: ReadAttachment[] = [];
  for (const [i, a] of parsed.attachments.entries()) {
    const bytes = asUtf8(a);
    const detected = await detectFormat({ bytes }, { name: a.filename ?? undefined });
    const format: FormatName | null = detected.format;
    const named = a.filename ? cleanName(a.filename) : '';
    const extension = format ? (FORMATS[format].extensions[0] ?? '') : '';
    const name = uniqueName(named || `attachment-${i + 1}${extension}`, taken);
    const read: ReadAttachment = {
      name,
      bytes,
      size: a.bytes.byteLength,
      format,
      found: detected.format === null ? detected.found : null,
      inline: a.inline,
    };
    if (format === 'eml' || format === 'msg') {
      if (depth + 1 > MAX_EMAIL_DEPTH)
        read.notRead = `a message nested more than ${MAX_EMAIL_DEPTH} deep`;
      else {
        try {
          read.message = await readNested(bytes, format, depth + 1, limits, budget);
        } catch (err) {
          // A damaged attached message is listed as not read; the rest of the message still is.
          if (!(err instanceof ExtractionFailure) || err.code !== 'SOURCE_UNREADABLE') throw err;
          read.notRead = 'a damaged message';
        }
      }
    }
    out.push(read);
  }
  return out;
}

async function readNested(
  bytes: Uint8Array,
  format: 'eml' | 'msg',
  depth: number,
  limits: ReadLimits,
  budget: PartBudget,
): Promise<ReadMessage> {
  const parsed = await parse(bytes, format, limits);
  return { ...parsed, attachments: await readAttachments(parsed, depth, limits, budget) };
}

/**
 * A message file as a reader sees it (runs in a prep process): its headers and body, and its
 * attachments with their formats recognised by content; attached messages are read in turn,
 * to MAX_EMAIL_DEPTH. Past `maxParts` parts in all, the message is too large to read.
 */
export async function readMessage(
  bytes: Uint8Array,
  format: 'eml' | 'msg',
  limits: ReadLimits,
): Promise<ReadMessage> {
  const message = await readNested(bytes, format, 0, limits, new PartBudget(limits.maxParts));
  const { headers, body, attachments } = message;
  if (Object.values(headers).every((h) => h === null) && !body.trim() && attachments.length === 0)
    throw new ExtractionFailure(
      'SOURCE_UNREADABLE',
      'The message could not be read: it has no headers, no body and no attachments.',
    );
  return message;
}
