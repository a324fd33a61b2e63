import type { SourceType } from '@xt/contract';
import { isImageType, sniffContentType, type SniffedType } from '@xt/fetcher';
import type { InspectedContent } from './inspect.ts';

export type ContentCheck = { ok: true; contentType: string } | { ok: false; message: string };

/** Formats people upload by mistake, named so the 422 says what the file actually is. */
function describeOther(head: Buffer, sniffed: SniffedType | null): string {
  if (sniffed === 'application/pdf') return 'a PDF';
  if (sniffed === 'text/html') return 'an HTML document';
  if (sniffed) return `an image (${sniffed})`;
  const magic = (bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (magic([0x50, 0x4b, 0x03, 0x04]) || magic([0x50, 0x4b, 0x05, 0x06])) return 'a ZIP archive';
  if (magic([0x4d, 0x5a])) return 'a Windows executable';
  if (magic([0x7f, 0x45, 0x4c, 0x46])) return 'an ELF executable';
  if (magic([0x1f, 0x8b])) return 'a gzip archive';
  if (magic([0x23, 0x21])) return 'a script';
  return 'an unrecognised format';
}

/** Text formats accepted as `text`, by declared type or extension; the content decides HTML. */
const TEXT_TYPES: [RegExp, RegExp, string][] = [
  [/^text\/html$|^application\/xhtml\+xml$/, /\.x?html?$/i, 'text/html'],
  [/^text\/markdown$|^text\/x-markdown$/, /\.(md|markdown)$/i, 'text/markdown'],
  [/^text\/csv$/, /\.csv$/i, 'text/csv'],
  [/^application\/json$/, /\.json$/i, 'application/json'],
];

function textType(head: Buffer, declared: string | undefined, name: string): string {
  if (sniffContentType(head) === 'text/html') return 'text/html';
  const mime = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  for (const [byMime, byName, type] of TEXT_TYPES)
    if (byMime.test(mime) || byName.test(name)) return type;
  return 'text/plain';
}

/**
 * Decides whether uploaded bytes are what `type` says, by their content (magic numbers), never
 * by the name or the declared Content-Type, which the client controls. Returns the content type
 * records show, or the 422 message for `source`.
 */
export function checkUploadContent(
  type: SourceType,
  content: InspectedContent,
  opts: { declaredType?: string; name: string; maxTextChars: number },
): ContentCheck {
  const fail = (message: string): ContentCheck => ({ ok: false, message });
  if (type === 'webpage')
    return fail('source for type webpage is a URL; upload an HTML file as type text');
  if (content.size === 0) return fail('source is an empty file');
  const sniffed = sniffContentType(content.head);
  if (type === 'pdf') {
    if (sniffed === 'application/pdf') return { ok: true, contentType: sniffed };
    return fail(`source is not a PDF: the file is ${describeOther(content.head, sniffed)}`);
  }
  if (type === 'image') {
    if (sniffed === 'image/svg+xml')
      return fail('source is an SVG, which is not accepted as an image (it is a document)');
    if (isImageType(sniffed) && sniffed) return { ok: true, contentType: sniffed };
    return fail(`source is not an image: the file is ${describeOther(content.head, sniffed)}`);
  }
  if (sniffed === 'application/pdf' || (isImageType(sniffed) && sniffed !== 'image/svg+xml'))
    return fail(
      `source is ${describeOther(content.head, sniffed)}, not text: upload it as type ${sniffed === 'application/pdf' ? 'pdf' : 'image'}`,
    );
  if (!content.utf8Text)
    return fail(
      `source is not UTF-8 text (the file is ${describeOther(content.head, sniffed)} or uses another encoding)`,
    );
  if (content.textLength > opts.maxTextChars)
    return fail(`source must be at most ${opts.maxTextChars} characters`);
  // Blank text is empty too, as for a text field (checked when the whole file is in `head`).
  const blank = content.size <= content.head.length && content.head.toString('utf8').trim() === '';
  if (content.textLength === 0 || blank) return fail('source is an empty file');
  return { ok: true, contentType: textType(content.head, opts.declaredType, opts.name) };
}
