import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { forJobFailure } from '@xt/queue';
import type { WorkerMetrics } from '../ops/worker-metrics.ts';
import { handleInterruption, interruptionOf, type InterruptionContext } from './interruption.ts';
import { endJob, type JobEnd } from './job-end.ts';

/** What a step answers: the step after it (kept in the job's data first), or the run's end. */
export type StepResult<S extends string, D> = { next: S; data?: Partial<D> } | JobEnd;

export interface StepJob<S extends string, D extends object> extends Omit<
  InterruptionContext,
  'log' | 'metrics' | 'job'
> {
  job: InterruptionContext['job'] & Pick<Job, 'updateData'>;
  stop: AbortSignal | undefined;
  metrics?: Pick<WorkerMetrics, 'finished' | 'retry' | 'requeued'> | undefined;
  /** Wakes API requests waiting on the extraction (a final row written). */
  publish: () => Promise<void>;
  /** The job's data, as checked against the catalogue. */
  data: D;
  /** The step this run starts at, as the job's data names it. */
  step: S;
  steps: { readonly [K in S]: (data: D, log: Logger) => Promise<StepResult<S, D>> };
}

/**
 * Runs a job's steps in turn from the one its data names (BullMQ's step jobs): a step that
 * moves on has the next step, and what it needs, written into the job's data before it runs,
 * so a later run of the job (after its windows, a crash, a retry) starts there. The run ends
 * in one place: the end a step answers goes to `endJob`, an interruption (from whatever step)
 * to `handleInterruption`, anything else to BullMQ as the job's failure.
 */
export async function runSteps<S extends string, D extends object>(
  run: StepJob<S, D>,
  log: Logger,
): Promise<{ status: string }> {
  let step = run.step;
  let data = run.data;
  try {
    for (;;) {
      const result = await run.steps[step](data, log);
      if (!('next' in result)) return await endJob(result, { ...run, log });
      data = { ...data, ...result.data, step: result.next };
      await run.job.updateData(data);
      step = result.next;
    }
  } catch (err) {
    const interruption = interruptionOf(err, run.stop);
    if (!interruption) throw forJobFailure(err);
    return handleInterruption(interruption, err, { ...run, log });
  }
}

/**
 * A step's work on a claimed row: what fails it becomes the row's failure (`failed`), while an
 * interruption passes through to `runSteps` untouched, recorded as nothing.
 */
export async function failingTheRow<T>(
  stop: AbortSignal | undefined,
  work: () => Promise<T>,
  failed: (err: unknown) => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (interruptionOf(err, stop)) throw err;
    return failed(err);
  }
}
