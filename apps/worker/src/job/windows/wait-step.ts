import type { Job } from 'bullmq';
import type { ExtractJobPayload, WindowJobPayload } from '@xt/queue';
import type { JobLifecycle } from '../lifecycle.ts';
import { planWindows } from './plan.ts';
import type { WindowSplit } from './split-step.ts';
import type { WindowStore } from './store.ts';

/**
 * The extraction's job hands its windows to the queue and waits for them without holding a
 * worker slot (BullMQ's waiting-children): 'waiting' when it now waits, 'ready' when every
 * window is stored. Windows already stored are not added again, so a run of the job after a
 * crash or a retry only adds what is missing. The job's data already names its step
 * (`merge-windows`, with the split), so the run that follows the windows merges them rather
 * than claiming the row again.
 */
export async function waitForWindows(
  job: Job,
  token: string,
  payload: ExtractJobPayload,
  split: WindowSplit,
  deps: {
    windows: Pick<WindowStore, 'stored' | 'enqueue'>;
    lifecycle: Pick<JobLifecycle, 'recordProgress'>;
  },
): Promise<'waiting' | 'ready'> {
  const { extractionId } = payload;
  const plan = planWindows(split.pagesTotal, split.splitPages);
  const stored = await deps.windows.stored(extractionId);
  const missing = plan.filter((w) => !stored.indexes.includes(w.index));
  if (missing.length === 0) return 'ready';
  const base = {
    extractionId,
    count: plan.length,
    pagesTotal: split.pagesTotal,
    ...(payload.requestId ? { requestId: payload.requestId } : {}),
    ...(payload.traceparent ? { traceparent: payload.traceparent } : {}),
  };
  await deps.windows.enqueue(
    job,
    missing.map((w): WindowJobPayload => ({ ...base, ...w })),
  );
  await deps.lifecycle.recordProgress(extractionId, {
    pagesDone: stored.pages,
    pagesTotal: split.pagesTotal,
  });
  return (await job.moveToWaitingChildren(token)) ? 'waiting' : 'ready';
}
