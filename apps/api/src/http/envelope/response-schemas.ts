/**
 * The envelope every answer of the API wears, as zod schemas: `sendOk`/`sendError` are typed
 * from them and the OpenAPI document (apps/api/src/openapi) is generated from them, so what the
 * code sends and what the document promises are one definition (docs/api.md#envelope-and-status-codes).
 */
import { z } from 'zod';
import { FAILURE_CODES } from '@xt/contract';
import type { PaginationMeta } from '@xt/contract';

/** The codes the API itself answers with; a failed extraction adds its failure code. */
export const API_ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_BODY',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'BODY_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'TOO_MANY_ACTIVE',
  'IDEMPOTENCY_KEY_REUSED',
  'ALREADY_REVIEWED',
  'UNAVAILABLE',
  'NOT_READY',
  'INTERNAL',
] as const;

export const ErrorCode = z
  .enum([...API_ERROR_CODES, ...FAILURE_CODES.filter((c) => c !== 'INTERNAL')])
  .meta({
    id: 'ErrorCode',
    description:
      'Stable machine-readable code: one of the API’s own, or the failure code of an extraction that failed while the request waited (docs/api.md#failure-codes).',
  });

export const FieldError = z
  .object({
    field: z.string().meta({
      description: 'the request field, dots for nesting and brackets for array positions',
      examples: ['structure.properties.total.type', 'metadata.customer', 'Idempotency-Key'],
    }),
    message: z.string(),
  })
  .meta({ id: 'FieldError' });

const extractionId = z.uuid().meta({
  description: 'the extraction that failed, when a synchronous create waited for it',
});

/** 4xx/5xx other than a 422: `{ status: false, message, code }`. */
export const ErrorBody = z
  .object({
    status: z.literal(false),
    message: z.string(),
    code: ErrorCode,
    extractionId: extractionId.optional(),
  })
  .meta({ id: 'ErrorBody' });

/** A 422: one entry per problem, all problems of the request at once. */
export const ValidationErrorBody = z
  .object({
    status: z.literal(false),
    errors: z.array(FieldError).min(1),
    code: ErrorCode,
    extractionId: extractionId.optional(),
  })
  .meta({ id: 'ValidationErrorBody' });

export type ErrorBodyOut = z.output<typeof ErrorBody> | z.output<typeof ValidationErrorBody>;

/** `{ status: true, message, data }` around a route's own data. */
export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal(true), message: z.string(), data });
}

export const EmptyData = z.object({}).meta({ description: 'nothing: the answer is the status' });

const pageUrl = z.string().meta({ examples: ['/?page=2'] });

/** Typed against the interface the list routes build, so the two cannot drift apart. */
export const PaginationMetaSchema: z.ZodType<PaginationMeta> = z
  .object({
    total: z.int().min(0),
    perPage: z.int().min(1),
    currentPage: z.int().min(1),
    lastPage: z.int().min(1),
    firstPage: z.literal(1),
    firstPageUrl: pageUrl,
    lastPageUrl: pageUrl,
    nextPageUrl: pageUrl.nullable(),
    previousPageUrl: pageUrl.nullable(),
  })
  .meta({ id: 'PaginationMeta' });

/** A list answer's `data`: `{ data: [...], meta }` (docs/api.md#pagination). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: PaginationMetaSchema });
}
