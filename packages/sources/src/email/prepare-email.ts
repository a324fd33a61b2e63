import {
  ExtractionFailure,
  kindsReading,
  SOURCE_KINDS,
  type ContentPart,
  type FormatName,
  type GroundingPart,
  type ImagesAsText,
  type PreparedSource,
  type SourceType,
} from '@xt/contract';
import type { PrepareOptions } from '../preparer.ts';
import { keepPartBytes, sourceBytesOf, type PageBytes } from '../previews/source-bytes.ts';
import { prepareText } from '../text.ts';
import type { ReadAttachment, ReadMessage } from './message.ts';
import { formatLabel, messageText, type Listed } from './message-text.ts';

/** The kinds attachments are read as, through the same handlers as a source of that kind. */
export interface AttachmentReaders {
  /** Whether this worker reads files of `kind` (its handler is enabled). */
  reads(kind: SourceType): boolean;
  /** Prepares bytes exactly as a source of `kind` in `format` is prepared. */
  prepareBytesOfKind(
    kind: SourceType,
    bytes: Buffer,
    format: FormatName,
    opts: PrepareOptions,
  ): Promise<PreparedSource>;
  /** The largest file a kind reads (its download cap); no bound of its own when absent. */
  maxBytes(kind: SourceType): number | undefined;
}

export interface EmailDeps extends AttachmentReaders {
  /** Reads the message file (in a prep process): headers, body, attachments, nested messages. */
  read(bytes: Buffer, format: 'eml' | 'msg'): Promise<ReadMessage>;
  /** Images, attached or inline, sent to the model across the whole message. */
  maxImages: number;
}

/** One part as it reaches the model, with what was read of it for grounding. */
interface Section {
  parts: ContentPart[];
  grounding: GroundingPart | undefined;
}

interface Walk {
  deps: EmailDeps;
  opts: PrepareOptions;
  sections: Section[];
  /** Parts the service reads that were left unread, said in the SOURCE_TRUNCATED warning. */
  unread: string[];
  /** Attachments read with their tracked changes accepted, said in a REVISIONS_ACCEPTED warning. */
  revised: string[];
  images: number;
  partPages: Map<string, PageBytes>;
  /** What the attachments read for a model that takes no images did in the images' place. */
  asText: ImagesAsText;
}

/** What messages call a kind's files: the registry's noun, plural ("a PDF": "PDFs"). */
const kindNoun = (kind: SourceType) => `${SOURCE_KINDS[kind].noun.replace(/^an? /, '')}s`;

/** Why an attachment could not be read, from its kind's own failure. */
function whyUnread(err: ExtractionFailure, format: FormatName): string {
  if (format === 'pdf' && /password/i.test(err.message)) return 'password-protected';
  const why = err.message.replace(/\.$/, '');
  return why.charAt(0).toLowerCase() + why.slice(1);
}

/** An attachment's heading, with its first page so that a chunk never separates the two. */
function headerPart(text: string, first: ContentPart | undefined): ContentPart {
  return first?.unit === undefined
    ? { kind: 'text', text }
    : { kind: 'text', text, unit: first.unit };
}

/**
 * One attachment that is not a message: read by the kind its content is (the same handler a
 * source of that kind goes through), or listed by name and size with the reason it was not.
 */
async function readAttachment(walk: Walk, a: ReadAttachment, name: string): Promise<Listed> {
  const { deps, opts } = walk;
  const listed: Listed = {
    name,
    what: a.format ? formatLabel(a.format) : (a.found ?? 'unknown'),
    size: a.size,
  };
  if (a.inline && a.format && kindsReading(a.format).includes('image'))
    listed.what = `inline image, ${formatLabel(a.format)}`;
  const unread = (why: string, warn: boolean): Listed => {
    listed.notRead = why;
    if (warn) walk.unread.push(`${name} (${why})`);
    return listed;
  };
  if (a.format === null) return unread('not a kind of file the service reads', false);
  if (a.format === 'office-encrypted') return unread('password-protected', true);
  const kinds = kindsReading(a.format).filter((k) => k !== 'email' && k !== 'auto');
  const kind = kinds.find((k) => deps.reads(k));
  if (!kind) {
    const noun = kinds.map((k) => kindNoun(k)).join(' or ');
    return unread(`${noun} are not read on this worker`, true);
  }
  const cap = deps.maxBytes(kind);
  if (cap !== undefined && a.size > cap)
    return unread(`larger than the ${cap}-byte limit for ${kindNoun(kind)}`, true);
  if (kind === 'image' && walk.images >= deps.maxImages)
    return unread(
      `more than ${deps.maxImages} image${deps.maxImages === 1 ? '' : 's'} in the message (MAX_EMAIL_IMAGES)`,
      true,
    );
  let prepared: PreparedSource;
  try {
    prepared = await deps.prepareBytesOfKind(kind, Buffer.from(a.bytes), a.format, opts);
  } catch (err) {
    // A part that cannot be read is reported, and the rest of the message is still read; a
    // failure worth trying again (the worker's own) fails the whole attempt as usual.
    if (err instanceof ExtractionFailure && !err.retryable)
      return unread(whyUnread(err, a.format), true);
    throw err;
  }
  if (kind === 'image') walk.images += 1;
  if (prepared.truncated) walk.unread.push(`${name}: ${prepared.truncated.message}`);
  if (prepared.revisions) walk.revised.push(name);
  if (prepared.imagesAsText) {
    walk.asText.pages += prepared.imagesAsText.pages;
    walk.asText.images += prepared.imagesAsText.images;
    walk.asText.leftOut += prepared.imagesAsText.leftOut;
  }
  const pages = sourceBytesOf(prepared);
  if (pages) walk.partPages.set(name, pages);
  walk.sections.push({
    parts: [
      headerPart(`=== Attachment: ${name} (${listed.what}) ===`, prepared.parts[0]),
      ...prepared.parts,
    ],
    grounding: prepared.grounding && { part: name, source: prepared.grounding },
  });
  return listed;
}

/**
 * A message and, after it, each of its attachments: the message's own text (headers, body and
 * the list of attachments) is the part `self`; attachments are parts named by their file names,
 * under `prefix` inside a nested message (`fwd.eml/invoice.pdf`).
 */
async function walkMessage(
  walk: Walk,
  message: ReadMessage,
  self: string,
  prefix: string,
  title: string | null,
): Promise<void> {
  const at = walk.sections.length;
  const listed: Listed[] = [];
  for (const a of message.attachments) {
    const name = prefix + a.name;
    if (a.message) {
      listed.push({ name, what: 'email message', size: a.size });
      await walkMessage(walk, a.message, name, `${name}/`, `=== Attached message: ${name} ===`);
    } else if (a.notRead) {
      walk.unread.push(`${name} (${a.notRead})`);
      listed.push({ name, what: 'email message', size: a.size, notRead: a.notRead });
    } else listed.push(await readAttachment(walk, a, name));
  }
  const text = [title, messageText(message, listed)].filter(Boolean).join('\n');
  walk.sections.splice(at, 0, {
    parts: prepareText(text).parts,
    grounding: { part: self, source: { kind: 'plain', text } },
  });
}

/**
 * Each section's units renumbered in order over the whole message, so that a section's pages
 * stay together when a long message is cut into chunks and no two sections share a unit.
 */
function renumber(sections: Section[]): ContentPart[] {
  const out: ContentPart[] = [];
  let next = 0;
  for (const section of sections) {
    const units = new Map<number, number>();
    for (const part of section.parts) {
      if (part.unit === undefined) {
        out.push(part);
        continue;
      }
      let unit = units.get(part.unit);
      if (unit === undefined) units.set(part.unit, (unit = ++next));
      out.push({ ...part, unit });
    }
  }
  return out;
}

/**
 * An email as the model reads it (docs/sources.md): the headers a reader sees and the body, the
 * list of attachments, then each attachment read by its own kind, nested messages in turn. With
 * citations the parts' own grounding sources are kept side by side, each under its part's name.
 */
export async function prepareEmail(
  bytes: Buffer,
  format: 'eml' | 'msg',
  opts: PrepareOptions,
  deps: EmailDeps,
): Promise<PreparedSource> {
  const message = await deps.read(bytes, format);
  const walk: Walk = {
    deps,
    opts,
    sections: [],
    unread: [],
    revised: [],
    images: 0,
    partPages: new Map(),
    asText: { pages: 0, images: 0, leftOut: 0 },
  };
  await walkMessage(walk, message, 'body', '', null);
  const prepared: PreparedSource = { parts: renumber(walk.sections) };
  if (opts.citations) {
    const parts = walk.sections.flatMap((s) => (s.grounding ? [s.grounding] : []));
    prepared.grounding = { kind: 'parts', parts };
  }
  if (walk.unread.length > 0)
    prepared.truncated = {
      message: `Parts of the message were not read: ${walk.unread.join('; ')}.`,
    };
  const { pages, images, leftOut } = walk.asText;
  if (pages + images + leftOut > 0) prepared.imagesAsText = walk.asText;
  if (walk.revised.length > 0)
    prepared.revisions = {
      message: `Attachments with tracked changes were read with them accepted, so deleted text is not part of what was read: ${walk.revised.join(', ')}.`,
    };
  // The parts with pages are drawn for the review view as their own kinds draw them.
  return keepPartBytes(prepared, walk.partPages);
}
