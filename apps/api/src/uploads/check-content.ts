import {
  acceptsFormat,
  FORMATS,
  formatOfMime,
  SOURCE_KINDS,
  uploadKindFor,
  type FormatName,
  type SourceType,
} from '@xt/contract';
import { sniffContentType, type SniffedType } from '@xt/fetcher';
import type { InspectedContent } from './inspect.ts';

export type ContentCheck =
  { ok: true; contentType: string; format: FormatName } | { ok: false; message: string };

/** Formats people upload by mistake, named so the 422 says what the file actually is. */
function describeOther(head: Buffer, sniffed: SniffedType | null): string {
  if (sniffed === 'application/pdf') return 'a PDF';
  if (sniffed === 'text/html') return 'an HTML document';
  if (sniffed === 'image/svg+xml') return 'an SVG drawing (a document, not an image)';
  if (sniffed) return `an image (${sniffed})`;
  const magic = (bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (magic([0x50, 0x4b, 0x03, 0x04]) || magic([0x50, 0x4b, 0x05, 0x06])) return 'a ZIP archive';
  if (magic([0x4d, 0x5a])) return 'a Windows executable';
  if (magic([0x7f, 0x45, 0x4c, 0x46])) return 'an ELF executable';
  if (magic([0x1f, 0x8b])) return 'a gzip archive';
  if (magic([0x23, 0x21])) return 'a script';
  return 'an unrecognised format';
}

/** Text formats, told apart by declared type or extension; the content alone decides HTML. */
const TEXT_TYPES: [RegExp, FormatName][] = [
  [/^text\/markdown$|^text\/x-markdown$/, 'md'],
  [/^text\/csv$/, 'csv'],
  [/^application\/json$/, 'json'],
  [/^text\/html$|^application\/xhtml\+xml$/, 'html'],
];

/**
 * Which text format an upload that is text is. Markdown, CSV and JSON read as plain text with a
 * hint for the model, so the name may choose among them; only HTML is read differently (as a
 * page, statically), and that is decided by the content.
 */
function textFormat(head: Buffer, declared: string | undefined, name: string): FormatName {
  if (sniffContentType(head) === 'text/html') return 'html';
  const mime = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  const extension = /\.[^.]+$/.exec(name.toLowerCase())?.[0] ?? '';
  for (const [byMime, format] of TEXT_TYPES) {
    const extensions: readonly string[] = FORMATS[format].extensions;
    if (byMime.test(mime) || extensions.includes(extension)) return format;
  }
  return 'txt';
}

/**
 * Decides whether uploaded bytes are what `type` says, by their content (magic numbers), never
 * by the name or the declared Content-Type, which the client controls. What each type takes is
 * the registry's (docs/sources.md). Returns the format records show, or the 422 message for
 * `source`.
 */
export function checkUploadContent(
  type: SourceType,
  content: InspectedContent,
  opts: { declaredType?: string; name: string; maxTextChars: number },
): ContentCheck {
  const fail = (message: string): ContentCheck => ({ ok: false, message });
  const kind = SOURCE_KINDS[type];
  if (!kind.inputs.upload) {
    const html = uploadKindFor('html');
    return fail(
      `source for type ${type} is a URL, not a file${html ? `; upload an HTML file as type ${html}` : ''}`,
    );
  }
  if (content.size === 0) return fail('source is an empty file');
  const sniffed = sniffContentType(content.head);
  const readsText = acceptsFormat(type, 'txt');
  // A binary format recognised by its signature: the type must be one that reads it.
  const binary = sniffed && sniffed !== 'text/html' ? formatOfMime(sniffed) : undefined;
  if (binary && FORMATS[binary].detectedBy === 'magic') {
    if (acceptsFormat(type, binary))
      return { ok: true, contentType: FORMATS[binary].mime, format: binary };
    const other = uploadKindFor(binary);
    if (readsText && other)
      return fail(
        `source is ${describeOther(content.head, sniffed)}, not text: upload it as type ${other}`,
      );
  }
  if (!readsText)
    return fail(`source is not ${kind.noun}: the file is ${describeOther(content.head, sniffed)}`);
  if (!content.utf8Text)
    return fail(
      `source is not UTF-8 text (the file is ${describeOther(content.head, sniffed)} or uses another encoding)`,
    );
  if (content.textLength > opts.maxTextChars)
    return fail(`source must be at most ${opts.maxTextChars} characters`);
  // Blank text is empty too, as for a text field (checked when the whole file is in `head`).
  const blank = content.size <= content.head.length && content.head.toString('utf8').trim() === '';
  if (content.textLength === 0 || blank) return fail('source is an empty file');
  const format = textFormat(content.head, opts.declaredType, opts.name);
  return { ok: true, contentType: FORMATS[format].mime, format };
}
