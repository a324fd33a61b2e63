import { Redis } from 'ioredis';
import type { FaultStack } from './stack.ts';

/**
 * Extraction ids a worker is running now, from BullMQ's record of who took each job: the fault
 * tests kill or stop a worker only once it holds jobs, so the scenario is the one it names.
 */
export async function activeJobsOf(stack: FaultStack, workerName: string): Promise<string[]> {
  const redis = new Redis(stack.redis.url, { maxRetriesPerRequest: 1 });
  try {
    const ids = await redis.lrange('{faults}:extractions:active', 0, -1);
    const owners = await Promise.all(
      ids.map((id) => redis.hget(`{faults}:extractions:${id}`, 'pb')),
    );
    return ids.filter((_, i) => owners[i] === workerName);
  } finally {
    redis.disconnect();
  }
}
