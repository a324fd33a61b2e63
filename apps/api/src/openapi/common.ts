/**
 * Pieces every path of the OpenAPI document shares: the id parameter, the list query, the
 * response headers and the error answers, each built from the zod schemas the code uses.
 */
import { z } from 'zod';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  EXTRACTION_STATUSES,
  MAX_LIMIT,
  MAX_SEARCH_CHARS,
} from '@xt/contract';
import { ErrorBody, okEnvelope, ValidationErrorBody } from '../http/response-schemas.ts';

export const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

export const idPath = z.object({
  id: z.uuid().meta({ description: 'another account’s id answers 404, as if absent' }),
});

const day = z.iso.date().meta({ description: 'YYYY-MM-DD, a whole UTC day, inclusive' });

/** docs/api.md#pagination and #list-filters; a parameter given twice is a 422. */
export const listQuery = z.object({
  page: z.int().min(1).default(DEFAULT_PAGE),
  limit: z.int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  startDate: day.optional(),
  endDate: day.optional(),
  search: z
    .string()
    .max(MAX_SEARCH_CHARS)
    .optional()
    .meta({ description: 'case-insensitive substring; `%`, `_` and `\\` are literal' }),
});

export const extractionListQuery = listQuery.extend({
  status: z.enum(EXTRACTION_STATUSES).optional(),
  schema_id: z.uuid().optional(),
});

const retryAfter = z
  .string()
  .regex(/^\d+$/)
  .meta({ description: 'seconds to wait before trying again' });
const rateLimitHeaders = {
  'RateLimit-Limit': z.string().optional().meta({ description: 'requests allowed per window' }),
  'RateLimit-Remaining': z.string().optional().meta({ description: 'requests left this window' }),
  'RateLimit-Reset': z.string().optional().meta({ description: 'seconds until the window resets' }),
};
const requestIdHeader = {
  'x-request-id': z
    .string()
    .meta({ description: 'the caller’s own x-request-id when acceptable, else a fresh UUID' }),
};

/** Headers on every answer of a resource route (rate limiting applies after authentication). */
export const resourceHeaders = z.object({ ...requestIdHeader, ...rateLimitHeaders });

export function ok<T extends z.ZodType>(
  description: string,
  data: T,
  headers: z.ZodObject = resourceHeaders,
): ZodOpenApiResponseObject {
  return { description, headers, content: json(okEnvelope(data)) };
}

const error = (description: string, headers?: z.ZodObject): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: json(ErrorBody),
});

/** Every failure a resource route can answer, keyed by status (docs/api.md#envelope-and-status-codes). */
const ERRORS = {
  400: error('`MALFORMED_BODY` (bad JSON, broken multipart) or `BAD_REQUEST` (bad path encoding)'),
  401: error(
    '`UNAUTHORIZED`: missing, malformed, unknown or revoked API key',
    z.object({ 'WWW-Authenticate': z.literal('Bearer') }),
  ),
  403: error('`FORBIDDEN`: a read-scoped key on a route that changes something'),
  404: error('`NOT_FOUND`: unknown id, another account’s id, or unknown route'),
  413: error('`BODY_TOO_LARGE`'),
  415: error('`UNSUPPORTED_MEDIA_TYPE`: a Content-Type the route does not take'),
  422: {
    description:
      '`VALIDATION_FAILED` (one entry per invalid field), `IDEMPOTENCY_KEY_REUSED`, or a source failure of a synchronous create (`SOURCE_*`, with `extractionId`)',
    content: json(ValidationErrorBody),
  },
  429: error(
    '`RATE_LIMITED`: too many requests for this key',
    z.object({ 'Retry-After': retryAfter, ...rateLimitHeaders }),
  ),
  500: error('`INTERNAL` (or `TIMEOUT`/`INTERNAL` of an extraction that failed while waited for)'),
  502: error(
    'a synchronous create whose extraction failed at the model: `MODEL_UNAVAILABLE`, `MODEL_REFUSED`, `OUTPUT_INVALID`, with `extractionId`',
  ),
  503: error(
    '`UNAVAILABLE`: PostgreSQL cannot be reached; retry after `Retry-After`',
    z.object({ 'Retry-After': retryAfter }),
  ),
} satisfies Record<number, ZodOpenApiResponseObject>;

type ErrorStatus = keyof typeof ERRORS;

/** The failures every resource route shares, plus the ones given (body, query, 502). */
export function errors(...extra: ErrorStatus[]): ZodOpenApiResponsesObject {
  const statuses: ErrorStatus[] = [400, 401, 403, 404, 429, 500, 503, ...extra];
  return Object.fromEntries(
    [...new Set(statuses)].sort().map((status) => [String(status), ERRORS[status]]),
  );
}

/** A route that reads a JSON body: it may also answer 413, 415 and 422. */
export const BODY_ERRORS: ErrorStatus[] = [413, 415, 422];

export { retryAfter };
