import { z } from 'zod';
import type { JobsOptions } from 'bullmq';
import { EXTRACTION_BACKOFF } from './backoff.ts';

/**
 * The job catalogue: every queue, its job names, payload schemas and retry policy in one place,
 * so the producer (API, reconciler) and the consumer (worker) cannot drift apart.
 */
export const EXTRACTION_QUEUE = 'extractions';
export const EXTRACT_JOB = 'extract';

export const extractJobPayload = z.object({
  extractionId: z.uuid(),
  requestId: z.string().max(128).optional(),
  /** The W3C traceparent of the request that created the job, so its lines share a trace id. */
  traceparent: z.string().max(256).optional(),
});
export type ExtractJobPayload = z.infer<typeof extractJobPayload>;

export interface ExtractionJobPolicy {
  attempts: number;
  backoffMs: number;
  /**
   * The account's unfinished extractions when this one was created, itself included: BullMQ
   * takes lower numbers first, so each account's n-th waiting job comes before any account's
   * (n+1)-th, and an idle account's job does not wait behind another's backlog
   * (docs/security.md#fair-scheduling). Absent (the reconciler's rescues): ahead of all.
   */
  priority?: number;
}

/** BullMQ's largest priority. */
const MAX_PRIORITY = 2_097_152;

export function extractJobOptions(extractionId: string, policy: ExtractionJobPolicy): JobsOptions {
  return {
    // The extraction id is the job id: a second enqueue of the same extraction is a no-op.
    jobId: extractionId,
    attempts: policy.attempts,
    ...(policy.priority ? { priority: Math.min(Math.max(1, policy.priority), MAX_PRIORITY) } : {}),
    // Computed by the worker (extractionRetryDelay): exponential with jitter, and no sooner
    // than a model provider's Retry-After.
    backoff: { type: EXTRACTION_BACKOFF, delay: policy.backoffMs },
    // Finished jobs are only bookkeeping (the database holds the result); keep a day for the
    // dashboard and a week of failures for post-mortems.
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  };
}

/**
 * Webhook deliveries have their own queue and their own workers, so a slow or dead receiver
 * never holds up an extraction. One job is one event on its way to one endpoint (a row of
 * `webhook_messages`, whose id is the job id); BullMQ's retries are the delivery attempts.
 */
export const WEBHOOK_QUEUE = 'webhooks';
export const DELIVER_WEBHOOK_JOB = 'deliver';
/** The custom backoff type the delivery workers compute from their retry schedule. */
export const WEBHOOK_BACKOFF = 'webhook-schedule';

export const deliverWebhookPayload = z.object({ messageId: z.uuid() });
export type DeliverWebhookPayload = z.infer<typeof deliverWebhookPayload>;

export function deliverWebhookJobOptions(messageId: string, retries: number): JobsOptions {
  return {
    jobId: messageId,
    attempts: retries + 1,
    backoff: { type: WEBHOOK_BACKOFF },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  };
}
