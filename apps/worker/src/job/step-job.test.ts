import {
  DelayedError,
  UnrecoverableError,
  WaitingChildrenError,
  WaitingError,
  type Job,
} from 'bullmq';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { ExtractionFailure } from '@xt/contract';
import { BatchWait } from '../batch/runner.ts';
import type { JobEnd } from './job-end.ts';
import { SHUTDOWN_REASON } from './job-run.ts';
import { failingTheRow, runSteps, type StepJob, type StepResult } from './step-job.ts';

type Step = 'first' | 'second';
interface Data {
  extractionId: string;
  step?: Step;
  split?: number;
}

const log = pino({ level: 'silent' });
const TOKEN = 'lock-token';
const databaseDown = () => Object.assign(new Error('terminating connection'), { code: '57P01' });

function harness(
  steps: Partial<Record<Step, (data: Data) => Promise<StepResult<Step, Data>>>>,
  over: Partial<StepJob<Step, Data>> = {},
) {
  const job = {
    moveToWait: vi.fn(() => Promise.resolve()),
    moveToDelayed: vi.fn(() => Promise.resolve()),
    updateData: vi.fn(() => Promise.resolve()),
  };
  const metrics = { finished: vi.fn(), retry: vi.fn(), requeued: vi.fn() };
  const row = {
    release: vi.fn(() => Promise.resolve(true)),
    pause: vi.fn(() => Promise.resolve(true)),
    publish: vi.fn(() => Promise.resolve()),
  };
  const unused = () => Promise.reject(new Error('not this step'));
  const run = () =>
    runSteps<Step, Data>(
      {
        job: job as unknown as Job,
        token: TOKEN,
        stop: undefined,
        what: 'extraction',
        metrics,
        ...row,
        data: { extractionId: 'e1' },
        step: 'first',
        steps: { first: steps.first ?? unused, second: steps.second ?? unused },
        ...over,
      },
      log,
    );
  /** Nothing was moved, released, paused or counted. */
  const untouched = () => {
    expect(job.moveToWait).not.toHaveBeenCalled();
    expect(job.moveToDelayed).not.toHaveBeenCalled();
    expect(row.release).not.toHaveBeenCalled();
    expect(row.pause).not.toHaveBeenCalled();
    expect(metrics.requeued).not.toHaveBeenCalled();
  };
  return { job, metrics, row, run, untouched };
}

const finished = (status: string): JobEnd => ({ end: 'finished', status });

describe('runSteps: the steps', () => {
  it('starts at the step named, keeping the next step and its data in the job before it runs', async () => {
    const seen: Data[] = [];
    const h = harness({
      first: (data) => {
        seen.push(data);
        return Promise.resolve({ next: 'second', data: { split: 40 } });
      },
      second: (data) => {
        seen.push(data);
        // Kept before the step ran: a crash now resumes here.
        expect(h.job.updateData).toHaveBeenCalledTimes(1);
        return Promise.resolve(finished('completed'));
      },
    });
    await expect(h.run()).resolves.toEqual({ status: 'completed' });
    const kept = { extractionId: 'e1', split: 40, step: 'second' };
    expect(h.job.updateData).toHaveBeenCalledWith(kept);
    expect(seen).toEqual([{ extractionId: 'e1' }, kept]);
  });

  it('a run resumed at a later step does not run the earlier ones', async () => {
    const h = harness(
      { second: () => Promise.resolve(finished('completed')) },
      { step: 'second', data: { extractionId: 'e1', step: 'second' } },
    );
    await expect(h.run()).resolves.toEqual({ status: 'completed' });
    expect(h.job.updateData).not.toHaveBeenCalled();
  });
});

describe('runSteps: each interruption has its one outcome, from any step', () => {
  it('waiting for its windows: BullMQ is told as thrown, nothing else done', async () => {
    const waiting = new WaitingChildrenError();
    const h = harness({
      first: () => Promise.resolve({ next: 'second' }),
      second: () => Promise.reject(waiting),
    });
    await expect(h.run()).rejects.toBe(waiting);
    h.untouched();
  });

  it('shutdown: the claim given back and the job handed to the front of the queue', async () => {
    const stop = new AbortController();
    stop.abort(SHUTDOWN_REASON);
    // Whatever the step was doing when stopped (here, its deadline's failure).
    const h = harness(
      { first: () => Promise.reject(new ExtractionFailure('TIMEOUT', 'stopped')) },
      { stop: stop.signal },
    );
    await expect(h.run()).rejects.toBeInstanceOf(WaitingError);
    expect(h.row.release).toHaveBeenCalledTimes(1);
    expect(h.job.moveToWait).toHaveBeenCalledWith(TOKEN);
    expect(h.metrics.requeued).toHaveBeenCalledWith('shutdown');
    expect(h.job.moveToDelayed).not.toHaveBeenCalled();
  });

  it('a window at shutdown is handed back without touching the row', async () => {
    const stop = new AbortController();
    stop.abort(SHUTDOWN_REASON);
    const h = harness(
      { first: () => Promise.reject(new Error('aborted')) },
      { stop: stop.signal, what: 'window', release: undefined },
    );
    await expect(h.run()).rejects.toBeInstanceOf(WaitingError);
    expect(h.job.moveToWait).toHaveBeenCalledWith(TOKEN);
    expect(h.row.release).not.toHaveBeenCalled();
  });

  it('a batch wait: the row paused and the job delayed until the provider is due', async () => {
    const until = Date.now() + 60_000;
    const h = harness({ first: () => Promise.reject(new BatchWait(until)) });
    await expect(h.run()).rejects.toBeInstanceOf(DelayedError);
    expect(h.row.pause).toHaveBeenCalledTimes(1);
    expect(h.job.moveToDelayed).toHaveBeenCalledWith(until, TOKEN);
    expect(h.metrics.requeued).not.toHaveBeenCalled();
    expect(h.row.release).not.toHaveBeenCalled();
  });

  it('the database down: delayed a few seconds, counted, the row untouched', async () => {
    const before = Date.now();
    const h = harness({ first: () => Promise.reject(databaseDown()) });
    await expect(h.run()).rejects.toBeInstanceOf(DelayedError);
    const [at, token] = h.job.moveToDelayed.mock.calls[0] as unknown as [number, string];
    expect(token).toBe(TOKEN);
    expect(at).toBeGreaterThan(before);
    expect(h.metrics.requeued).toHaveBeenCalledWith('database_unavailable');
    expect(h.row.pause).not.toHaveBeenCalled();
    expect(h.row.release).not.toHaveBeenCalled();
    expect(h.metrics.finished).not.toHaveBeenCalled();
  });

  it('aborted for another reason: failed as thrown, nothing moved', async () => {
    const stop = new AbortController();
    stop.abort('lock lost');
    const err = new Error('aborted');
    const h = harness({ first: () => Promise.reject(err) }, { stop: stop.signal });
    await expect(h.run()).rejects.toBe(err);
    h.untouched();
  });

  it('without the job lock nothing can be moved: failed as thrown', async () => {
    const h = harness({ first: () => Promise.reject(databaseDown()) }, { token: undefined });
    await expect(h.run()).rejects.toMatchObject({ code: '57P01' });
    h.untouched();
  });

  it('anything else is the job failing, for BullMQ to retry', async () => {
    const err = new TypeError('boom');
    const h = harness({ first: () => Promise.reject(err) });
    await expect(h.run()).rejects.toBe(err);
    h.untouched();
    expect(h.metrics.finished).not.toHaveBeenCalled();
  });
});

describe('runSteps: the ends, closed in one place', () => {
  it('finished: counted, told to waiting requests when written, answered with its status', async () => {
    const h = harness({
      first: () =>
        Promise.resolve({
          end: 'finished',
          status: 'completed',
          outcome: 'completed',
          notify: true,
        }),
    });
    await expect(h.run()).resolves.toEqual({ status: 'completed' });
    expect(h.metrics.finished).toHaveBeenCalledWith('completed');
    expect(h.row.publish).toHaveBeenCalledTimes(1);
  });

  it('nothing to do: no message to waiting requests', async () => {
    const h = harness({
      first: () => Promise.resolve({ end: 'finished', status: 'deleted', outcome: 'deleted' }),
    });
    await expect(h.run()).resolves.toEqual({ status: 'deleted' });
    expect(h.metrics.finished).toHaveBeenCalledWith('deleted');
    expect(h.row.publish).not.toHaveBeenCalled();
  });

  it('failed: never retried, told to waiting requests only when this run wrote it', async () => {
    const failure = new ExtractionFailure('OUTPUT_INVALID', 'no');
    for (const written of [true, false]) {
      const h = harness({
        first: () => Promise.resolve({ end: 'failed', failure, written, message: 'failed' }),
      });
      await expect(h.run()).rejects.toBeInstanceOf(UnrecoverableError);
      expect(h.metrics.finished).toHaveBeenCalledWith('failed', 'OUTPUT_INVALID');
      expect(h.row.publish).toHaveBeenCalledTimes(written ? 1 : 0);
    }
  });

  it('retry: the failure thrown for BullMQ to back off on, counted as a retry', async () => {
    const failure = new ExtractionFailure('MODEL_UNAVAILABLE', 'busy', { retryable: true });
    const h = harness({
      first: () => Promise.resolve({ end: 'retry', failure, level: 'info', message: 'will retry' }),
    });
    await expect(h.run()).rejects.toBe(failure);
    expect(h.metrics.retry).toHaveBeenCalledWith('MODEL_UNAVAILABLE');
    expect(h.metrics.finished).not.toHaveBeenCalled();
    expect(h.row.publish).not.toHaveBeenCalled();
  });

  it('a completion Redis cannot take is left to polling, not a failure', async () => {
    const h = harness(
      {
        first: () => Promise.resolve({ end: 'finished', status: 'completed', notify: true }),
      },
      { publish: () => Promise.reject(new Error('redis down')) },
    );
    await expect(h.run()).resolves.toEqual({ status: 'completed' });
  });
});

describe('failingTheRow', () => {
  const failed = (err: unknown) => Promise.resolve(`failed: ${(err as Error).message}`);

  it("makes a step's failure the row's", async () => {
    await expect(
      failingTheRow(undefined, () => Promise.reject(new Error('boom')), failed),
    ).resolves.toBe('failed: boom');
  });

  it('lets every interruption through unrecorded', async () => {
    const stop = new AbortController();
    stop.abort(SHUTDOWN_REASON);
    const cases: [unknown, AbortSignal | undefined][] = [
      [new WaitingChildrenError(), undefined],
      [new BatchWait(Date.now()), undefined],
      [databaseDown(), undefined],
      [new Error('aborted'), stop.signal],
    ];
    for (const [err, signal] of cases) {
      const record = vi.fn(failed);
      await expect(failingTheRow(signal, () => Promise.reject(err as Error), record)).rejects.toBe(
        err,
      );
      expect(record).not.toHaveBeenCalled();
    }
  });
});
