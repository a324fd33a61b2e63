import { z } from 'zod';
import { REVIEW_DECISIONS, REVIEW_STATUSES, isUuid, type ReviewStatus } from '@xt/contract';
import { listQueryOr422 } from '../http/listing/list.ts';
import type { ListQuery } from '../http/listing/list-query.ts';
import { validationError } from '../http/errors/errors.ts';

/** `POST /extractions/{id}/review`. Corrections are checked against the schema by the lifecycle. */
export const reviewBody = z.strictObject({
  decision: z.enum(REVIEW_DECISIONS),
  corrections: z
    .record(z.string().regex(/^\//, 'must be a JSON Pointer such as /total'), z.unknown())
    .optional()
    .meta({
      description:
        'JSON Pointer into `result` → the value it should be (`/lines/0/amount`: 12.5); approve only',
    }),
  note: z.string().max(2000).nullable().optional(),
});

export type ReviewBody = z.output<typeof reviewBody>;

export interface ReviewListQuery extends Omit<ListQuery, 'status'> {
  reviewStatus?: ReviewStatus;
}

/**
 * `GET /reviews`: the list parameters, with `status` a review status (not an extraction's) and
 * `schema_id`, each one value; anything else is a 422 naming it.
 */
export function reviewListQuery(query: Record<string, unknown>): ReviewListQuery {
  const { status, ...rest } = query;
  const errors: { field: string; message: string }[] = [];
  let reviewStatus: ReviewStatus | undefined;
  if (status !== undefined) {
    reviewStatus = REVIEW_STATUSES.find((s) => s === status);
    if (!reviewStatus)
      errors.push({
        field: 'status',
        message: `status must be one of: ${REVIEW_STATUSES.join(', ')}`,
      });
  }
  const schemaId = rest.schema_id;
  if (schemaId !== undefined && (typeof schemaId !== 'string' || !isUuid(schemaId)))
    errors.push({ field: 'schema_id', message: 'schema_id must be a UUID' });
  if (errors.length > 0) throw validationError(errors);
  const q = listQueryOr422(rest, { extraction: true });
  return { ...q, ...(reviewStatus ? { reviewStatus } : {}) };
}
