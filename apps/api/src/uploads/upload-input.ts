import { Readable } from 'node:stream';
import type { FormatName, SourceType, UploadedFile } from '@xt/contract';
import { checkUploadContent } from './check-content.ts';
import { decodeDataUrl } from './data-url.ts';
import { displayFileName, UNNAMED_UPLOAD } from './filename.ts';
import { inspectBuffer } from './inspect.ts';
import { openTempFile, type ReceivedFile } from './receive.ts';

/** An uploaded source that passed its checks, ready to be stored with the extraction. */
export interface UploadInput {
  file: UploadedFile;
  /** The kind it is read as: the declared type, or the one `auto` recognised. */
  type: SourceType;
  /** Its format, recognised by content (docs/sources.md). */
  format: FormatName;
  /** The bytes, as a stream; may be opened once. */
  open(): AsyncIterable<Uint8Array>;
}

export type UploadResult = { ok: true; upload: UploadInput } | { ok: false; message: string };

interface UploadOptions {
  maxTextChars: number;
  maxUploadBytes: number;
}

/** A `source` file part (already on disk, inspected on arrival). */
export async function uploadFromPart(
  type: SourceType,
  part: ReceivedFile,
  opts: UploadOptions,
): Promise<UploadResult> {
  const name = displayFileName(part.originalName);
  const check = await checkUploadContent(type, { path: part.path }, part.content, {
    name,
    ...opts,
  });
  if (!check.ok) return check;
  const { size, sha256 } = part.content;
  return {
    ok: true,
    upload: {
      file: { name, size, contentType: check.contentType, sha256 },
      type: check.type,
      format: check.format,
      open: () => openTempFile(part.path),
    },
  };
}

/** A base64 `data:` URL given as `source` for a kind that takes files. */
export async function uploadFromDataUrl(
  type: SourceType,
  source: string,
  opts: UploadOptions,
): Promise<UploadResult> {
  const decoded = decodeDataUrl(source, opts.maxUploadBytes);
  if (!decoded.ok) return decoded;
  const bytes = decoded.bytes;
  const content = inspectBuffer(bytes);
  const check = await checkUploadContent(type, { bytes }, content, {
    name: UNNAMED_UPLOAD,
    ...opts,
  });
  if (!check.ok) return check;
  return {
    ok: true,
    upload: {
      file: {
        name: UNNAMED_UPLOAD,
        size: content.size,
        contentType: check.contentType,
        sha256: content.sha256,
      },
      type: check.type,
      format: check.format,
      open: () => Readable.from([bytes]),
    },
  };
}
