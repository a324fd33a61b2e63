import {
  acceptsFormat,
  autoKindFor,
  FORMATS,
  SOURCE_KINDS,
  uploadKindFor,
  type FormatName,
  type SourceType,
} from '@xt/contract';
import { detectFormat, type FileInput } from '@xt/formats';
import type { InspectedContent } from './inspect.ts';

export type ContentCheck =
  | {
      ok: true;
      /** The kind the file is read as: the declared one, or the one `auto` found. */
      type: SourceType;
      format: FormatName;
      contentType: string;
    }
  | { ok: false; message: string };

/** "a PDF file", "an XLSX file": what a recognised format is called in messages. */
function describeFormat(format: FormatName): string {
  const name = format === 'office-encrypted' ? 'password-protected Office' : format.toUpperCase();
  return `${/^[AEFHILMNORSX]/.test(name) ? 'an' : 'a'} ${name} file`;
}

/**
 * Decides whether an uploaded file is what `type` says, by its content (@xt/formats), never by
 * its name or the declared Content-Type, which the client controls. What each type reads is
 * the registry's (docs/sources.md); `auto` reads as whatever kind the content is. Returns the
 * kind and format records show, or the 422 message for `source`.
 */
export async function checkUploadContent(
  type: SourceType,
  file: FileInput,
  content: InspectedContent,
  opts: { name: string; maxTextChars: number; maxUploadBytes: number },
): Promise<ContentCheck> {
  const fail = (message: string): ContentCheck => ({ ok: false, message });
  const kind = SOURCE_KINDS[type];
  if (!kind.inputs.upload) {
    const html = uploadKindFor('html');
    return fail(
      `source for type ${type} is a URL, not a file${html ? `; upload an HTML file as type ${html}` : ''}`,
    );
  }
  if (content.size === 0) return fail('source is an empty file');
  const readsText = acceptsFormat(type, 'txt');
  const detected = await detectFormat(file, {
    name: opts.name,
    maxCompoundBytes: opts.maxUploadBytes,
    table: type === 'spreadsheet',
  });
  if (!detected.format) {
    if (detected.found === 'an empty file') return fail('source is an empty file');
    if (readsText)
      return fail(
        `source is not UTF-8 text (the file is ${detected.found} or uses another encoding)`,
      );
    return fail(`source is not ${kind.noun}: the file is ${detected.found}`);
  }
  const format = detected.format;
  const resolved = type === 'auto' ? autoKindFor(format, 'upload') : type;
  if (!resolved || !acceptsFormat(resolved, format)) {
    const other = uploadKindFor(format);
    if (readsText && other && FORMATS[format].detectedBy !== 'text')
      return fail(`source is ${describeFormat(format)}, not text: upload it as type ${other}`);
    return fail(
      `source is not ${kind.noun}: the file is ${describeFormat(format)}${other ? ` (type ${other} reads it)` : ''}`,
    );
  }
  // A message is text by shape but not UTF-8 by rule: a part sent `8bit` is in the charset its
  // own header names (Latin-1, windows-1251...), which the message reader decodes.
  if (FORMATS[format].detectedBy === 'text' && format !== 'eml') {
    // The detector judged a sample; the whole file must be UTF-8 and within the text cap.
    if (!content.utf8Text)
      return fail('source is not UTF-8 text (it has invalid bytes past its beginning)');
    // Read as running text (a CSV read as a spreadsheet has a cap on its cells instead).
    if (SOURCE_KINDS[resolved].layout === 'flow' && content.textLength > opts.maxTextChars)
      return fail(`source must be at most ${opts.maxTextChars} characters`);
  }
  return { ok: true, type: resolved, format, contentType: FORMATS[format].mime };
}
