import type { Db, ExtractionRow } from '@xt/db';
import {
  claim,
  complete,
  exists,
  recordFailure,
  recordProgress,
  recordSpent,
  pause,
  recordSourceFound,
  release,
  type ClaimResult,
} from '@xt/extractions';
import { publishCompletion, type RedisConnection } from '@xt/queue';

/**
 * What the job's steps do to the extraction's row and tell waiting requests: the lifecycle's
 * transitions (@xt/extractions) and the "finished" message (@xt/queue), bound to this worker's
 * connections. The steps take it as a parameter, so each can be tested without servers.
 */
export interface JobLifecycle {
  claim(id: string): Promise<ClaimResult>;
  /** Whether the row still exists (a deletion while the job ran removes it). */
  exists(id: string): Promise<boolean>;
  complete(
    id: string,
    output: unknown,
    spent: Parameters<typeof complete>[3],
    grounded: Parameters<typeof complete>[4],
  ): Promise<boolean>;
  recordFailure(
    id: string,
    failure: Parameters<typeof recordFailure>[2],
    next: 'failed' | 'pending',
  ): Promise<boolean>;
  /** What a page window's failed attempt spent, added while the extraction stays `processing`. */
  recordSpent(id: string, spent: Parameters<typeof recordSpent>[2]): Promise<boolean>;
  release(id: string): Promise<boolean>;
  /** A batch extraction waiting for the provider: still `processing`, the claim given back. */
  pause(id: string): Promise<boolean>;
  /** What a fetched source turned out to be: its format, and for `auto` its kind. */
  recordSourceFound(id: string, found: Parameters<typeof recordSourceFound>[2]): Promise<boolean>;
  /** Pages finished of the pages in all, while processing (docs/api.md#progress). */
  recordProgress(id: string, progress: Parameters<typeof recordProgress>[2]): Promise<boolean>;
  /** Wakes API requests waiting on this extraction. */
  publish(id: string): Promise<void>;
}

export type { ClaimResult, ExtractionRow };

export function jobLifecycle(db: Db, redis: RedisConnection, prefix: string): JobLifecycle {
  return {
    claim: (id) => claim(db, id),
    exists: (id) => exists(db, id),
    complete: (id, output, spent, grounded) => complete(db, id, output, spent, grounded),
    recordFailure: (id, failure, next) => recordFailure(db, id, failure, next),
    recordSpent: (id, spent) => recordSpent(db, id, spent),
    release: (id) => release(db, id),
    pause: (id) => pause(db, id),
    recordSourceFound: (id, found) => recordSourceFound(db, id, found),
    recordProgress: (id, progress) => recordProgress(db, id, progress),
    publish: (id) => publishCompletion(redis, prefix, id),
  };
}
