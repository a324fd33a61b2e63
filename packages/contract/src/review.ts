import { z } from 'zod';
import type { FieldError } from './errors.ts';
import { fieldAtPath } from './structure-paths.ts';
import type { Structure } from './structure-types.ts';

/*
 * Human review of completed extractions (docs/review.md): a schema's review settings, why an
 * extraction was queued, and what its records show of the review.
 */

export const REVIEW_STATUSES = ['needs_review', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_DECISIONS = ['approve', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const REVIEW_REASON_CODES = ['LOW_CONFIDENCE', 'REQUIRED_NOT_FOUND', 'SAMPLED'] as const;
export type ReviewReasonCode = (typeof REVIEW_REASON_CODES)[number];

export const ReviewPolicySchema = z
  .strictObject({
    minConfidence: z.number().min(0).max(1).meta({
      description:
        'a value whose citation confidence is below this queues the extraction (confidence is known only with `citations: true`)',
    }),
    fields: z.array(z.string()).min(1).max(100).optional().meta({
      description:
        'structure paths the confidence and required checks look at (array items written `*`, e.g. `/lines/*/amount`; a path covers what is under it); every field when absent',
    }),
    sample: z.number().min(0).max(1).optional().meta({
      description:
        'the share of completed extractions queued whatever their values, drawn once per extraction id',
    }),
  })
  .meta({ id: 'ReviewPolicy' });

export type ReviewPolicy = z.output<typeof ReviewPolicySchema>;

export const ReviewReasonSchema = z
  .object({
    code: z.enum(REVIEW_REASON_CODES),
    path: z.string().nullable().meta({ description: 'the value’s JSON Pointer; null for SAMPLED' }),
    message: z.string(),
  })
  .meta({ id: 'ReviewReason' });

export type ReviewReason = z.output<typeof ReviewReasonSchema>;

/**
 * The review settings of a schema body, checked against its structure: every problem named
 * under `field` (`review.minConfidence`, `review.fields[1]`, …).
 */
export function validateReviewPolicy(
  value: unknown,
  structure: Structure | undefined,
  field = 'review',
): { policy?: ReviewPolicy | null; errors: FieldError[] } {
  if (value === null) return { policy: null, errors: [] };
  const parsed = ReviewPolicySchema.safeParse(value);
  if (!parsed.success) {
    return {
      errors: parsed.error.issues.map((issue) => ({
        field:
          field +
          issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join(''),
        message: issue.message,
      })),
    };
  }
  const errors: FieldError[] = [];
  if (structure)
    parsed.data.fields?.forEach((path, i) => {
      if (!fieldAtPath(structure, path))
        errors.push({
          field: `${field}.fields[${i}]`,
          message: `${path} is not a field of the structure (write paths as /name, array items as *)`,
        });
    });
  return errors.length > 0 ? { errors } : { policy: parsed.data, errors };
}

/** What both records show of a review; present only for an extraction that was queued. */
export const RecordReviewSchema = z
  .object({
    status: z.enum(REVIEW_STATUSES),
    reasons: z.array(ReviewReasonSchema),
    reviewedAt: z.string().nullable().meta({ description: 'ISO 8601; null until reviewed' }),
    reviewedBy: z.string().nullable().meta({
      description:
        'who decided: `key:<api key id>` or `user:<dashboard user id>`; null until reviewed',
    }),
    note: z.string().nullable(),
  })
  .optional()
  .meta({
    id: 'Review',
    description:
      'present only when the schema’s review settings queued the extraction on completion (docs/review.md)',
  });

export type RecordReview = z.output<typeof RecordReviewSchema>;
