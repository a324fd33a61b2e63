/**
 * Pieces every path of the OpenAPI document shares: the id parameter, the list query, the
 * response headers and the error answers, each built from the zod schemas the code uses.
 */
import { z } from 'zod';
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { EXTRACTION_STATUSES } from '@xt/contract';
import {
  DEFAULT_LIMIT,
  DEFAULT_PAGE,
  MAX_LIMIT,
  MAX_PAGE,
  MAX_SEARCH_CHARS,
} from '../http/listing/list-query.ts';
import { ErrorBody, okEnvelope, ValidationErrorBody } from '../http/envelope/response-schemas.ts';

export const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

export const idPath = z.object({
  id: z.uuid().meta({ description: 'another account’s id answers 404, as if absent' }),
});

const day = z.iso.date().meta({ description: 'YYYY-MM-DD, a whole UTC day, inclusive' });

/** docs/api.md#pagination and #list-filters; a parameter given twice is a 422. */
export const listQuery = z.object({
  page: z.int().min(1).max(MAX_PAGE).default(DEFAULT_PAGE),
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
export const rateLimitHeaders = {
  'RateLimit-Limit': z.string().optional().meta({ description: 'requests allowed per window' }),
  'RateLimit-Remaining': z.string().optional().meta({ description: 'requests left this window' }),
  'RateLimit-Reset': z.string().optional().meta({ description: 'seconds until the window resets' }),
  'RateLimit-Policy': z
    .string()
    .optional()
    .meta({ description: '`<limit>;w=<window seconds>`', examples: ['600;w=60'] }),
};
const requestIdHeader = {
  'x-request-id': z
    .string()
    .meta({ description: 'the caller’s own x-request-id when acceptable, else a fresh UUID' }),
};

/** Headers on every answer, the operational routes' included. */
export const requestIdHeaders = z.object(requestIdHeader);

/** Headers on every answer of a resource route (rate limiting applies after authentication). */
export const resourceHeaders = z.object({ ...requestIdHeader, ...rateLimitHeaders });

/** A list page also links its neighbours (RFC 8288), absolute, keeping the other parameters. */
export const pageHeaders = resourceHeaders.extend({
  Link: z
    .string()
    .optional()
    .meta({
      description:
        'absolute URLs of the `first`, `last`, `next` and `prev` pages, as `meta` names them; no `next` on the last page, no `prev` on the first',
      examples: [
        '<https://api.example.com/v1/schemas?page=3&limit=10>; rel="next", <https://api.example.com/v1/schemas?page=1&limit=10>; rel="prev"',
      ],
    }),
});

export function ok<T extends z.ZodType>(
  description: string,
  data: T,
  headers: z.ZodObject = resourceHeaders,
): ZodOpenApiResponseObject {
  return { description, headers, content: json(okEnvelope(data)) };
}

type Code = z.output<typeof ErrorBody>['code'];

/** An error answer; the example shows the code this status usually carries. */
const error = (
  description: string,
  example: [Code, string],
  headers?: z.ZodObject,
): ZodOpenApiResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    'application/json': {
      schema: ErrorBody,
      example: { status: false, message: example[1], code: example[0] },
    },
  },
});

/** Every failure a resource route can answer, keyed by status (docs/api.md#envelope-and-status-codes). */
const ERRORS = {
  400: error('`MALFORMED_BODY` (bad JSON, broken multipart) or `BAD_REQUEST` (bad path encoding)', [
    'MALFORMED_BODY',
    'The request body is not valid JSON.',
  ]),
  401: error(
    '`UNAUTHORIZED`: missing, malformed, unknown or revoked API key',
    ['UNAUTHORIZED', 'Invalid or revoked API key.'],
    z.object({
      'WWW-Authenticate': z
        .string()
        .regex(/^Bearer realm="api"/)
        .meta({ examples: ['Bearer realm="api", error="invalid_token"'] }),
    }),
  ),
  403: error('`FORBIDDEN`: a read-scoped key on a route that changes something', [
    'FORBIDDEN',
    'This API key is read-only; a write key is required.',
  ]),
  404: error('`NOT_FOUND`: unknown id, another account’s id, or unknown route', [
    'NOT_FOUND',
    'Schema not found.',
  ]),
  409: error(
    '`ALREADY_REVIEWED`: the extraction’s review was decided already, perhaps a moment ago',
    [
      'ALREADY_REVIEWED',
      'This extraction was already reviewed (approved); a review is decided once.',
    ],
  ),
  413: error('`BODY_TOO_LARGE`', ['BODY_TOO_LARGE', 'The request body is too large.']),
  415: error('`UNSUPPORTED_MEDIA_TYPE`: a Content-Type the route does not take', [
    'UNSUPPORTED_MEDIA_TYPE',
    'Content-Type must be one of: application/json.',
  ]),
  422: {
    description:
      '`VALIDATION_FAILED` (one entry per invalid field), `IDEMPOTENCY_KEY_REUSED`, or a source failure of a synchronous create (`SOURCE_*`, with `extractionId`)',
    content: {
      'application/json': {
        schema: ValidationErrorBody,
        example: {
          status: false,
          errors: [{ field: 'name', message: 'name is required' }],
          code: 'VALIDATION_FAILED',
        },
      },
    },
  },
  429: error(
    '`RATE_LIMITED`: too many requests for this key or its account; `TOO_MANY_ACTIVE`: the account holds the most keys, webhook endpoints, schemas or unfinished extractions allowed (docs/security.md#fair-use)',
    ['RATE_LIMITED', 'Maximum number of requests exceeded. Please retry later.'],
    z.object({ 'Retry-After': retryAfter, ...rateLimitHeaders }),
  ),
  500: error('`INTERNAL` (or `TIMEOUT`/`INTERNAL` of an extraction that failed while waited for)', [
    'INTERNAL',
    'An unexpected error occurred.',
  ]),
  502: error(
    'a synchronous create whose extraction failed at the model: `MODEL_UNAVAILABLE`, `MODEL_REFUSED`, `OUTPUT_INVALID`, with `extractionId`',
    ['MODEL_UNAVAILABLE', 'The model provider failed.'],
  ),
  503: error(
    '`UNAVAILABLE`: PostgreSQL cannot be reached; retry after `Retry-After`',
    ['UNAVAILABLE', 'The service is temporarily unavailable. Please retry shortly.'],
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
