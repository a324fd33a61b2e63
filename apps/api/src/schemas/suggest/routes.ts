import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import type { ApiConfig } from '../../config.ts';
import { principalOf } from '../../auth/principal.ts';
import {
  acceptBody,
  defaultEmptyBody,
  jsonBody,
  multipartBoundary,
  parseBodyObject,
} from '../../http/input/body.ts';
import { sendOk } from '../../http/envelope/envelope.ts';
import { validationError } from '../../http/errors/errors.ts';
import { multipartParser, receivedFiles, receivedPaths } from '../../uploads/receive.ts';
import type { UploadTempDir } from '../../uploads/temp-files.ts';
import { convertJsonSchema } from '../convert/json-schema.ts';
import { MAX_SAMPLES, parseSuggestBody, SAMPLES_FIELD } from './body.ts';
import type { Conversion } from './response.ts';
import type { SuggestService } from './service.ts';

/** A JSON Schema carries titles and annotations a structure drops: more room than a schema body. */
export const CONVERT_BODY_LIMIT = '1mb';

/**
 * The samples' parser: up to five `files` parts streamed to temp files, as a create's `source`.
 * A file past MAX_UPLOAD_BYTES is named as that sample (`files[2]`), so the client knows which.
 */
function samplesParser(config: ApiConfig, temp: UploadTempDir): RequestHandler[] {
  const multipart = multipartParser({
    temp,
    maxUploadBytes: config.MAX_UPLOAD_BYTES,
    maxFieldBytes: 64 * 1024,
    field: SAMPLES_FIELD,
    keep: MAX_SAMPLES,
  });
  const parse: RequestHandler = (req, res, next) => {
    multipart(req, res, (err?: unknown) => {
      if (err instanceof multer.MulterError && err.code === 'LIMIT_FILE_SIZE') {
        const index = Math.max(0, receivedFiles(req, SAMPLES_FIELD).count - 1);
        next(
          validationError([
            {
              field: `${SAMPLES_FIELD}[${index}]`,
              message: `the file is larger than the ${config.MAX_UPLOAD_BYTES} bytes allowed (MAX_UPLOAD_BYTES)`,
            },
          ]),
        );
        return;
      }
      next(err);
    });
  };
  return [multipartBoundary, acceptBody(['multipart/form-data']), parse, defaultEmptyBody];
}

/** `POST /schemas/suggest` and `POST /schemas/convert` (docs/api.md#suggest-a-schema). */
export function suggestRoutes(
  service: SuggestService,
  config: ApiConfig,
  temp: UploadTempDir,
): Router {
  const router = Router();

  router.post('/schemas/suggest', ...samplesParser(config, temp), async (req, res) => {
    // A client that goes away stops the waiting, never the extractions.
    const gone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) gone.abort();
    };
    res.on('close', onClose);
    try {
      const input = await parseBodyObject(req.body, (body) =>
        parseSuggestBody(body, {
          maxTextChars: config.MAX_TEXT_CHARS,
          maxUploadBytes: config.MAX_UPLOAD_BYTES,
          received: receivedFiles(req, SAMPLES_FIELD),
          models: config.models,
        }),
      );
      const suggestion = await service.suggest(principalOf(req).accountId, input, {
        requestId: req.id,
        traceparent: req.traceparent,
        signal: gone.signal,
        log: req.log,
      });
      if (gone.signal.aborted) return;
      sendOk(res, suggestion, 'Schema suggested; nothing was stored as a schema.');
    } finally {
      res.off('close', onClose);
      // The bytes are in the store (or refused): the temp files have done their job either way.
      await Promise.all(receivedPaths(req).map((p) => temp.remove(p)));
    }
  });

  router.post('/schemas/convert', ...jsonBody(CONVERT_BODY_LIMIT), (req, res) => {
    const conversion = parseBodyObject(req.body, (body): Conversion => {
      if (body.jsonSchema === undefined)
        throw validationError([{ field: 'jsonSchema', message: 'jsonSchema is required' }]);
      const result = convertJsonSchema(body.jsonSchema);
      if (!result.ok) throw validationError(result.errors);
      return { structure: result.structure, dropped: result.dropped };
    });
    sendOk(res, conversion, 'JSON Schema converted; nothing was stored as a schema.');
  });

  return router;
}
