import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { XtError } from './errors.ts';

/** A file to upload as the multipart `source` part. */
export type Upload =
  | { path: string; filename?: string; contentType?: string }
  | {
      /**
       * Bytes (Buffer is a Uint8Array), a Blob, a web ReadableStream or a Node Readable (any
       * async iterable of chunks).
       */
      data: Uint8Array | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;
      filename?: string;
      contentType?: string;
    };

export function isUpload(value: unknown): value is Upload {
  return typeof value === 'object' && value !== null && ('path' in value || 'data' in value);
}

/**
 * The upload as a Blob and a file name. A path is opened lazily (`fs.openAsBlob`), so a large
 * file is read while sending, not before. A stream is read into memory once: fetch needs a
 * known-size part for multipart, and a retry must be able to send the same bytes again; the
 * service caps uploads (`MAX_UPLOAD_BYTES`) far below what this costs.
 */
export async function uploadBlob(upload: Upload): Promise<{ blob: Blob; filename: string }> {
  const type = upload.contentType ? { type: upload.contentType } : {};
  if ('path' in upload) {
    const blob = await openPath(upload.path, type);
    return { blob, filename: upload.filename ?? basename(upload.path) };
  }
  const filename = upload.filename ?? 'upload';
  const { data } = upload;
  if (data instanceof Blob) {
    return {
      blob: upload.contentType ? data.slice(0, data.size, upload.contentType) : data,
      filename,
    };
  }
  if (data instanceof Uint8Array) return { blob: new Blob([copy(data)], type), filename };
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of iterate(data)) {
    chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : copy(chunk));
  }
  return { blob: new Blob(chunks, type), filename };
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
};

/**
 * A path as a Blob, or an error naming it: Node's own says "Unable to open file as blob" for a
 * missing file, without its path, and opens a folder as if it were one.
 */
async function openPath(path: string, type: { type?: string }): Promise<Blob> {
  const problem = (why: string, cause?: unknown) =>
    new XtError(`cannot upload ${path}: ${why}`, { cause });
  const reason = (err: unknown) => {
    const code = (err as { code?: unknown }).code;
    return (typeof code === 'string' && REASONS[code]) || String(err);
  };
  const info = await stat(path).catch((err: unknown) => {
    throw problem(reason(err), err);
  });
  if (!info.isFile()) throw problem(REASONS.EISDIR!);
  try {
    return await openAsBlob(path, type);
  } catch (err) {
    throw problem(reason(err), err);
  }
}

/** Blob parts must be backed by a plain ArrayBuffer; a Buffer may sit in a shared pool. */
function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

async function* iterate(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>,
): AsyncIterable<Uint8Array | string> {
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<Uint8Array | string>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
