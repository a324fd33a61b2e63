import type { Queue } from 'bullmq';
import {
  EXTRACT_JOB,
  extractJobOptions,
  type ExtractJobPayload,
  type ExtractionJobPolicy,
} from '@xt/queue';

/**
 * Gives an extraction its job. The one way a job is ever added, by the API after the create
 * commits and by the reconciler for rows left without one: the extraction id is the job id, so
 * a second enqueue of a live extraction adds nothing, whoever makes it.
 */
export function enqueueExtraction(
  queue: Queue,
  payload: ExtractJobPayload,
  policy: ExtractionJobPolicy,
): Promise<unknown> {
  return queue.add(EXTRACT_JOB, payload, extractJobOptions(payload.extractionId, policy));
}
