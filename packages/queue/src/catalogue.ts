import { z } from 'zod';
import { UnrecoverableError, type Job, type JobsOptions } from 'bullmq';
import { EXTRACTION_BACKOFF } from './backoff.ts';

/**
 * The job catalogue: every queue, its job names, payload schemas and retry policy in one place,
 * so the producer (API, reconciler) and the consumer (worker) cannot drift apart.
 */
export const EXTRACTION_QUEUE = 'extractions';
export const EXTRACT_JOB = 'extract';
/** One page window of a long document, a child of its extraction's job (docs/scaling.md). */
export const WINDOW_JOB = 'window';

export const extractJobPayload = z.object({
  extractionId: z.uuid(),
  requestId: z.string().max(128).optional(),
  /** The W3C traceparent of the request that created the job, so its lines share a trace id. */
  traceparent: z.string().max(256).optional(),
  /** The step the job is at (`extractJobStep`); absent on a new job, which starts at the first. */
  step: z.enum(['extract', 'merge-windows', 'await-children']).optional(),
  /**
   * How the document was split into page windows (`pagesTotal` pages, `splitPages` a window),
   * kept with the `merge-windows` step, which needs it (docs/scaling.md#one-large-document).
   */
  windows: z.object({ pagesTotal: z.int().min(1), splitPages: z.int().min(1) }).optional(),
});
export type ExtractJobPayload = z.infer<typeof extractJobPayload>;

/**
 * The extraction job's steps, the one it is at kept in its data (BullMQ's step jobs): `extract`
 * claims the row and works it, or splits a long document into page windows and moves on to
 * `merge-windows`, which waits for the windows and merges their answers; or, for a bundle split
 * into its documents (docs/split.md), splits it and moves on to `await-children`, which waits for
 * the children and completes it. A run of the job (after
 * its windows, a crash, a retry) starts at the step its data names.
 */
export type ExtractJobStep = NonNullable<ExtractJobPayload['step']>;

/**
 * The step a job's data names. Data written before steps were named has no `step`: such a job
 * was at `merge-windows` when it holds `windows`, since that version wrote them only then. The
 * split stays under `windows` so that a worker of that version, during a rolling upgrade, reads
 * a job this one moved on as it would have.
 */
export function extractJobStep(
  payload: Pick<ExtractJobPayload, 'step' | 'windows'>,
): ExtractJobStep {
  return payload.step ?? (payload.windows ? 'merge-windows' : 'extract');
}

export const windowJobPayload = z.object({
  extractionId: z.uuid(),
  /** 0-based, in page order, of `count` windows. */
  index: z.int().min(0),
  count: z.int().min(1),
  /** The document's own 1-based pages, both inclusive, of `pagesTotal`. */
  firstPage: z.int().min(1),
  lastPage: z.int().min(1),
  pagesTotal: z.int().min(1),
  requestId: z.string().max(128).optional(),
  traceparent: z.string().max(256).optional(),
});
export type WindowJobPayload = z.infer<typeof windowJobPayload>;

export interface ExtractionJobPolicy {
  attempts: number;
  backoffMs: number;
  /**
   * The account's unfinished extractions when this one was created, itself included: BullMQ
   * takes lower numbers first, so each account's n-th waiting job comes before any account's
   * (n+1)-th, and an idle account's job does not wait behind another's backlog
   * (docs/security.md#fair-scheduling). Every enqueue gives one (a create, the reconciler, an
   * Idempotency-Key replay): BullMQ runs a job without one ahead of every prioritised job.
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

/** A window's job id: its extraction's and its index (BullMQ ids may not contain `:`). */
export const windowJobId = (extractionId: string, index: number) => `${extractionId}-w${index}`;

/**
 * A page window's job: a child of its extraction's job, retried alone with the extraction's
 * attempts and backoff. Its priority is the extraction's plus its index, so that windows queue
 * like that account's next extractions (docs/security.md#fair-scheduling): another account's
 * work is not held behind every window of one long document. A window that fails for good fails
 * its parent (the window records the extraction's failure first).
 */
export function windowJobOptions(
  parent: { id: string; queue: string },
  payload: WindowJobPayload,
  policy: ExtractionJobPolicy,
): JobsOptions {
  const base = extractJobOptions(payload.extractionId, {
    ...policy,
    priority: (policy.priority ?? 1) + payload.index,
  });
  return {
    ...base,
    jobId: windowJobId(payload.extractionId, payload.index),
    parent,
    failParentOnFailure: true,
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

export const deliverWebhookPayload = z.object({
  messageId: z.uuid(),
  /** The event's account, whose share of the delivery slots the job takes; absent on jobs
   * queued before it was added, which run unshared. */
  accountId: z.uuid().optional(),
});
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

/**
 * Every queue's job names and their payload schemas. A worker consumes a queue through
 * `catalogueProcessor`, whose handler map must name exactly these jobs: a job kind added here
 * without a handler, or a handler for a job that is not here, fails typecheck.
 */
export const JOB_CATALOGUE = {
  [EXTRACTION_QUEUE]: { [EXTRACT_JOB]: extractJobPayload, [WINDOW_JOB]: windowJobPayload },
  [WEBHOOK_QUEUE]: { [DELIVER_WEBHOOK_JOB]: deliverWebhookPayload },
} as const;

type Catalogue = typeof JOB_CATALOGUE;
export type QueueName = keyof Catalogue;
export type JobName<Q extends QueueName> = keyof Catalogue[Q] & string;
export type JobPayload<Q extends QueueName, N extends JobName<Q>> =
  Catalogue[Q][N] extends z.ZodType<infer P> ? P : never;

/** Handles one job kind: the job as BullMQ gives it and its payload, already checked. */
export type JobHandler<P> = (
  job: Job,
  payload: P,
  token?: string,
  signal?: AbortSignal,
) => Promise<unknown>;

export type QueueHandlers<Q extends QueueName> = {
  readonly [N in JobName<Q>]: JobHandler<JobPayload<Q, N>>;
};

/**
 * The BullMQ processor of queue `queue`: checks each job's payload against the catalogue and
 * hands it to the handler of its name. A job of a name the catalogue does not know, or with a
 * payload its schema refuses, can never succeed: it fails at once instead of being retried.
 */
export function catalogueProcessor<Q extends QueueName>(queue: Q, handlers: QueueHandlers<Q>) {
  const schemas: Record<string, z.ZodType> = JOB_CATALOGUE[queue];
  const byName = handlers as Record<string, JobHandler<unknown>>;
  return (job: Job, token?: string, signal?: AbortSignal): Promise<unknown> => {
    const schema = Object.hasOwn(schemas, job.name) ? schemas[job.name] : undefined;
    const handler = byName[job.name];
    if (!schema || !handler)
      return Promise.reject(
        new UnrecoverableError(`queue "${queue}" has no job "${job.name}" in its catalogue`),
      );
    const parsed = schema.safeParse(job.data);
    if (!parsed.success)
      return Promise.reject(
        new UnrecoverableError(
          `job "${job.name}" on queue "${queue}" has a payload its schema refuses: ${parsed.error.issues
            .map((i) => `${i.path.join('.') || '(payload)'} ${i.message}`)
            .join('; ')}`,
        ),
      );
    return handler(job, parsed.data, token, signal);
  };
}
