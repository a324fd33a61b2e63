import { Readable } from 'node:stream';
import type { SourceType } from '@xt/contract';
import type { UploadedFile } from '@xt/contract';
import { checkUploadContent } from './check-content.ts';
import { decodeDataUrl } from './data-url.ts';
import { displayFileName, UNNAMED_UPLOAD } from './filename.ts';
import { inspectBuffer } from './inspect.ts';
import { openTempFile, type ReceivedFile } from './receive.ts';

/** An uploaded source that passed its checks, ready to be stored with the extraction. */
export interface UploadInput {
  file: UploadedFile;
  /** The bytes, as a stream; may be opened once. */
  open(): AsyncIterable<Uint8Array>;
}

export type UploadResult = { ok: true; upload: UploadInput } | { ok: false; message: string };

interface UploadOptions {
  maxTextChars: number;
  maxUploadBytes: number;
}

/** A `source` file part (already on disk, inspected on arrival). */
export function uploadFromPart(
  type: SourceType,
  part: ReceivedFile,
  opts: UploadOptions,
): UploadResult {
  const name = displayFileName(part.originalName);
  const check = checkUploadContent(type, part.content, {
    declaredType: part.declaredType,
    name,
    maxTextChars: opts.maxTextChars,
  });
  if (!check.ok) return check;
  const { size, sha256 } = part.content;
  return {
    ok: true,
    upload: {
      file: { name, size, contentType: check.contentType, sha256 },
      open: () => openTempFile(part.path),
    },
  };
}

/** A base64 `data:` URL given as `source` for a pdf or image. */
export function uploadFromDataUrl(
  type: SourceType,
  source: string,
  opts: UploadOptions,
): UploadResult {
  const decoded = decodeDataUrl(source, opts.maxUploadBytes);
  if (!decoded.ok) return decoded;
  const content = inspectBuffer(decoded.bytes);
  const check = checkUploadContent(type, content, {
    name: UNNAMED_UPLOAD,
    maxTextChars: opts.maxTextChars,
  });
  if (!check.ok) return check;
  const bytes = decoded.bytes;
  return {
    ok: true,
    upload: {
      file: {
        name: UNNAMED_UPLOAD,
        size: content.size,
        contentType: check.contentType,
        sha256: content.sha256,
      },
      open: () => Readable.from([bytes]),
    },
  };
}
