import { z } from 'zod';
import type { JobsOptions } from 'bullmq';

/**
 * The job catalogue: every queue, its job names, payload schemas and retry policy in one place,
 * so the producer (API, reconciler) and the consumer (worker) cannot drift apart.
 */
export const EXTRACTION_QUEUE = 'extractions';
export const EXTRACT_JOB = 'extract';

export const extractJobPayload = z.object({
  extractionId: z.uuid(),
  requestId: z.string().max(128).optional(),
});
export type ExtractJobPayload = z.infer<typeof extractJobPayload>;

export interface ExtractionJobPolicy {
  attempts: number;
  backoffMs: number;
}

export function extractJobOptions(extractionId: string, policy: ExtractionJobPolicy): JobsOptions {
  return {
    // The extraction id is the job id: a second enqueue of the same extraction is a no-op.
    jobId: extractionId,
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: policy.backoffMs, jitter: 0.5 },
    // Finished jobs are only bookkeeping (the database holds the result); keep a day for the
    // dashboard and a week of failures for post-mortems.
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  };
}
