import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import multer from 'multer';
import { ContentInspector, type InspectedContent } from './inspect.ts';
import type { UploadTempDir } from './temp-files.ts';

/** The form field a file may arrive in; file parts under other names are ignored. */
export const SOURCE_FIELD = 'source';

/** A `source` file part, written to a temp file and inspected on the way. */
export interface ReceivedFile {
  originalName: string | undefined;
  declaredType: string | undefined;
  path: string;
  content: InspectedContent;
}

interface StoredPart {
  path?: string;
  content?: InspectedContent;
}

/** Per-request: how many file parts arrived under the parser's field (only the first few are kept). */
const sourceParts = new WeakMap<Request, number>();

/**
 * A multer storage engine that streams a file part to a temp file through the inspector, so an
 * upload is hashed, sniffed and UTF-8-checked while it arrives and is never held in memory.
 */
class InspectingStorage implements multer.StorageEngine {
  constructor(private readonly temp: UploadTempDir) {}

  _handleFile(
    _req: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<Express.Multer.File> & StoredPart) => void,
  ): void {
    this.temp.newPath().then(
      (path) => this.write(file, path, callback),
      (err: unknown) => callback(err),
    );
  }

  private write(
    file: Express.Multer.File,
    path: string,
    callback: (error?: unknown, info?: Partial<Express.Multer.File> & StoredPart) => void,
  ): void {
    const inspector = new ContentInspector();
    const inspect = new Transform({
      transform(piece: Buffer, _enc, done: TransformCallback) {
        inspector.update(piece);
        done(null, piece);
      },
    });
    const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    pipeline(file.stream, inspect, out).then(
      () => {
        const content = inspector.finish();
        callback(null, { path, size: content.size, content });
      },
      async (err: unknown) => {
        // A destroyed write stream may still be opening the file: remove it once it is closed.
        if (!out.closed) await once(out, 'close').catch(() => undefined);
        await this.temp.remove(path);
        callback(err);
      },
    );
  }

  _removeFile(
    _req: Request,
    file: Express.Multer.File & StoredPart,
    callback: (error: Error | null) => void,
  ): void {
    if (!file.path) return callback(null);
    this.temp.remove(file.path).then(
      () => callback(null),
      (err: unknown) => callback(err as Error),
    );
  }
}

/**
 * The multipart parser of an upload route: fields as usual, the first `keep` file parts named
 * `field` kept (the create's one `source`, a suggestion's `files`), the rest only counted.
 */
export function multipartParser(opts: {
  temp: UploadTempDir;
  maxUploadBytes: number;
  maxFieldBytes: number;
  field?: string;
  keep?: number;
}) {
  const field = opts.field ?? SOURCE_FIELD;
  const keep = opts.keep ?? 1;
  return multer({
    storage: new InspectingStorage(opts.temp),
    // File names are UTF-8 in practice (browsers, curl); busboy's default would read Latin-1.
    defParamCharset: 'utf8',
    limits: {
      fieldSize: opts.maxFieldBytes,
      fileSize: opts.maxUploadBytes,
      fields: 20,
      parts: 30,
    },
    fileFilter(req, file, accept) {
      if (file.fieldname !== field) return accept(null, false);
      const seen = (sourceParts.get(req) ?? 0) + 1;
      sourceParts.set(req, seen);
      accept(null, seen <= keep);
    },
  }).any();
}

/** The kept file parts named `field`, in the order they came, and how many such parts came. */
export function receivedFiles(
  req: Request,
  field: string,
): { files: ReceivedFile[]; count: number } {
  const parts = (Array.isArray(req.files) ? req.files : []) as (Express.Multer.File & StoredPart)[];
  const files = parts.flatMap((part) =>
    part.fieldname === field && part.path && part.content
      ? [
          {
            originalName: part.originalname,
            declaredType: part.mimetype,
            path: part.path,
            content: part.content,
          },
        ]
      : [],
  );
  return { files, count: sourceParts.get(req) ?? 0 };
}

/** The `source` file of a parsed request, and how many `source` file parts it had. */
export function receivedFile(req: Request): { file?: ReceivedFile; count: number } {
  const { files, count } = receivedFiles(req, SOURCE_FIELD);
  return files[0] ? { file: files[0], count } : { count };
}

/** Temp files of a request, removed once it is answered whatever happened. */
export function receivedPaths(req: Request): string[] {
  const files = (Array.isArray(req.files) ? req.files : []) as (Express.Multer.File & StoredPart)[];
  return files.flatMap((f) => (f.path ? [f.path] : []));
}

export function openTempFile(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: 256 * 1024 });
}
