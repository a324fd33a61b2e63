import type { ErrorRequestHandler, RequestHandler } from 'express';
import multer from 'multer';
import { HttpError, validationError } from './errors.ts';
import { isObjectStoreUnavailable } from '@xt/blob-store';
import { isDatabaseUnavailable } from '@xt/db';
import {
  AlreadyReviewed,
  ExtractionNotFound,
  ReviewRefused,
  TooManyActive,
  UnknownSchema,
  UnknownSplitSchema,
} from '@xt/extractions';
import { tooManyActive } from '../limits/account-bounds.ts';
import { errorSummary } from '@xt/runtime';
import { sendError } from '../envelope/envelope.ts';

/** Seconds a client is asked to wait when a dependency is down (within the 3 s of docs/api.md#when-postgresql-or-redis-is-down). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/**
 * PostgreSQL or the object store down or restarting: a temporary condition, answered 503 so
 * clients retry. Nothing was kept: a create's row commits only after its bytes are stored.
 */
function fromDependency(err: unknown): HttpError | null {
  if (!isDatabaseUnavailable(err) && !isObjectStoreUnavailable(err)) return null;
  return new HttpError(
    503,
    'UNAVAILABLE',
    'The service is temporarily unavailable. Please retry shortly.',
    { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } },
  );
}

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

function fromBodyParser(err: unknown): HttpError | null {
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'MALFORMED_BODY', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new HttpError(413, 'BODY_TOO_LARGE', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'The request body encoding is not supported.',
      );
    case 'request.aborted':
      return new HttpError(400, 'MALFORMED_BODY', 'The request body was not received completely.');
    case 'parameters.too.many':
      return new HttpError(413, 'BODY_TOO_LARGE', 'The request body has too many fields.');
    default:
      return null;
  }
}

function fromMulter(err: unknown): HttpError | null {
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE')
      return new HttpError(413, 'BODY_TOO_LARGE', 'The uploaded file is larger than the limit.');
    if (
      err.code === 'LIMIT_FIELD_VALUE' ||
      err.code === 'LIMIT_PART_COUNT' ||
      err.code === 'LIMIT_FIELD_COUNT' ||
      err.code === 'LIMIT_FILE_COUNT'
    )
      return new HttpError(413, 'BODY_TOO_LARGE', 'The request body is too large.');
    return new HttpError(400, 'MALFORMED_BODY', `The multipart body is malformed (${err.code}).`);
  }
  // busboy reports a truncated or garbled multipart body as a plain Error.
  if (
    err instanceof Error &&
    /Unexpected end of (form|file)|Malformed part header|Multipart: Boundary not found|^Request (aborted|closed)$/i.test(
      err.message,
    )
  )
    return new HttpError(400, 'MALFORMED_BODY', 'The multipart body is malformed.');
  return null;
}

/** The lifecycle's refusals (packages/extractions/src/errors.ts), as the interface answers them. */
function fromDomain(err: unknown): HttpError | null {
  if (err instanceof ExtractionNotFound) return new HttpError(404, 'NOT_FOUND', err.message);
  if (err instanceof UnknownSchema || err instanceof UnknownSplitSchema)
    return validationError([{ field: err.field, message: err.message }]);
  if (err instanceof TooManyActive) return tooManyActive(err.message, 5);
  if (err instanceof ReviewRefused) return validationError(err.fields);
  if (err instanceof AlreadyReviewed) return new HttpError(409, 'ALREADY_REVIEWED', err.message);
  return null;
}

/** Client errors raised by the router itself: a malformed percent-encoding in the path. */
function fromRouter(err: unknown): HttpError | null {
  if (err instanceof URIError && (err as URIError & { status?: number }).status === 400)
    return new HttpError(400, 'BAD_REQUEST', 'The request path is not valid percent-encoding.');
  return null;
}

/** The one place where errors become envelopes. Nothing internal ever reaches the client. */
export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  const known =
    err instanceof HttpError
      ? err
      : (fromDomain(err) ??
        fromBodyParser(err) ??
        fromMulter(err) ??
        fromRouter(err) ??
        fromDependency(err));
  if (res.headersSent) {
    req.log.error({ err }, 'error after headers were sent');
    res.end();
    return;
  }
  if (!known) {
    req.log.error({ err }, 'unhandled error');
    sendError(res, 500, { message: 'An unexpected error occurred.', code: 'INTERNAL' });
    return;
  }
  // An outage is expected and says nothing about this request: one line, no stack, and not a
  // warning (the outage itself is warned about once, when it starts).
  if (known.code === 'UNAVAILABLE')
    req.log.info({ error: errorSummary(err) }, 'dependency unavailable; answered 503');
  // A synchronous create telling the client its extraction failed (a 502 for the model, say):
  // the worker logged the failure where it happened, and this is its answer, not an API fault.
  // A stack per extraction here buried the one start-up warning that said what to fix.
  else if (typeof known.extra?.extractionId === 'string')
    req.log.info(
      { extractionId: known.extra.extractionId, code: known.code },
      `extraction failed; answered ${known.status}`,
    );
  else if (known.status >= 500) req.log.error({ err }, known.message);
  for (const [name, value] of Object.entries(known.headers ?? {})) res.setHeader(name, value);
  if (known.status === 422 && known.fields)
    sendError(res, 422, { errors: known.fields, code: known.code, ...known.extra });
  else sendError(res, known.status, { message: known.message, code: known.code, ...known.extra });
};

/** Characters of a path a 404 repeats, at most: enough for any route, not a client's essay. */
const PATH_SHOWN = 200;

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  // The path as sent, query left out (it may carry what the client would not have echoed):
  // "not found" alone hid a typo in it.
  const path = req.originalUrl.split('?')[0] ?? '';
  const shown = path.length > PATH_SHOWN ? `${path.slice(0, PATH_SHOWN)}…` : path;
  next(new HttpError(404, 'NOT_FOUND', `No route ${req.method} ${shown}.`));
};
