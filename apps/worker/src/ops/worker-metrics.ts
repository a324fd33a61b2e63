import type { Job } from 'bullmq';
import type { FailureCode } from '@xt/contract';
import type { ModelCallRecord } from '@xt/model';
import { Counter, createRegistry, Gauge, Histogram, type Registry } from '@xt/telemetry';
import type { SourceStats } from '@xt/sources';
import type { StageTimer } from './stages.ts';

/** What the processor learnt about an extraction's end; `code` only for failures. */
export type ExtractionOutcome = 'completed' | 'failed' | 'deleted' | 'discarded' | 'duplicate';

/** Why a job went back to the queue without using an attempt. */
export type RequeueReason = 'database_unavailable' | 'shutdown';

export interface WorkerMetrics {
  readonly registry: Registry;
  readonly time: StageTimer;
  /** A job was picked up: how long it waited since it was added. */
  picked(job: Pick<Job, 'timestamp' | 'processedOn' | 'attemptsMade'>): void;
  /** Passed to the model client as `onCall`. */
  modelCall(call: ModelCallRecord): void;
  /** An attempt failed with a retryable failure and the job will be tried again. */
  retry(code: FailureCode): void;
  requeued(reason: RequeueReason): void;
  finished(outcome: ExtractionOutcome, code?: FailureCode): void;
  /**
   * Reads the prep pool's and the browser's state at scrape time through this accessor, so
   * their owners stay unaware of metrics; until it is set (or while it answers undefined) the
   * gauges read zero.
   */
  watch(stats: () => SourceStats | undefined): void;
  /** Counts jobs in progress around `work`. */
  running<T>(work: () => Promise<T>): Promise<T>;
}

// Stages run from milliseconds (a text store) to minutes (a long PDF's model calls).
const STAGE_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
const WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];

/**
 * The worker's metrics (docs/observability.md lists each). Every label takes values from a
 * fixed set (stages, source types, failure codes, outcomes, configured model names), never from
 * a job's data, so the number of series stays bounded however many jobs run.
 */
export function createWorkerMetrics(): WorkerMetrics {
  const registry = createRegistry();
  const registers = [registry];
  const stageDuration = new Histogram({
    name: 'worker_stage_duration_seconds',
    help: 'Time spent in each stage of a job (fetch, render, convert, rasterise, model, store) by source type',
    labelNames: ['stage', 'source_type'] as const,
    buckets: STAGE_BUCKETS,
    registers,
  });
  const queueWait = new Histogram({
    name: 'worker_queue_wait_seconds',
    help: 'Time from a job being added to a worker picking it up; retries include their backoff',
    labelNames: ['attempt'] as const,
    buckets: WAIT_BUCKETS,
    registers,
  });
  const modelCalls = new Counter({
    name: 'worker_model_calls_total',
    help: 'Model HTTP calls by provider model and outcome',
    labelNames: ['model', 'outcome'] as const,
    registers,
  });
  const modelTokens = new Counter({
    name: 'worker_model_tokens_total',
    help: 'Tokens the provider reported by model, call outcome and kind (prompt or completion)',
    labelNames: ['model', 'outcome', 'kind'] as const,
    registers,
  });
  const retries = new Counter({
    name: 'worker_job_retries_total',
    help: 'Attempts that failed retryably and were scheduled again, by failure code',
    labelNames: ['code'] as const,
    registers,
  });
  const requeues = new Counter({
    name: 'worker_job_requeues_total',
    help: 'Jobs put back without using an attempt (database unavailable, worker shutting down)',
    labelNames: ['reason'] as const,
    registers,
  });
  const extractions = new Counter({
    name: 'worker_extractions_total',
    help: 'Extractions this worker ended, by outcome and failure code (none unless failed)',
    labelNames: ['outcome', 'code'] as const,
    registers,
  });
  const inProgress = new Gauge({
    name: 'worker_jobs_in_progress',
    help: 'Extraction jobs running in this worker now',
    registers,
  });

  let read: () => SourceStats | undefined = () => undefined;
  new Gauge({
    name: 'worker_browser_contexts_open',
    help: 'Browser contexts (one per webpage being rendered) open now',
    registers,
    collect() {
      this.set(read()?.browser.contextsOpen ?? 0);
    },
  });
  let restartsSeen = 0;
  new Counter({
    name: 'worker_chromium_restarts_total',
    help: 'Chromium launches after the first: recycling (page budget, memory) and crashes',
    registers,
    collect() {
      // The renderer counts launches; a counter only moves forward, by what is new since.
      const restarts = Math.max(0, (read()?.browser.launches ?? 0) - 1);
      if (restarts > restartsSeen) this.inc(restarts - restartsSeen);
      restartsSeen = Math.max(restartsSeen, restarts);
    },
  });
  const prepGauge = (name: string, help: string, pick: (s: SourceStats['prep']) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const prep = read()?.prep;
        this.set(prep ? pick(prep) : 0);
      },
    });
  prepGauge('worker_prep_threads', 'Preparation processes running now', (s) => s.threads);
  prepGauge(
    'worker_prep_threads_busy',
    'Preparation processes working on a task now',
    (s) => s.busy,
  );
  prepGauge(
    'worker_prep_threads_max',
    'Preparation processes allowed (PREP_THREADS)',
    (s) => s.max,
  );
  prepGauge('worker_prep_queue_length', 'Preparation tasks waiting for a thread', (s) => s.queued);

  return {
    registry,
    async time(stage, type, work) {
      const end = stageDuration.startTimer({ stage, source_type: type });
      try {
        return await work();
      } finally {
        end();
      }
    },
    picked(job) {
      if (job.processedOn === undefined) return;
      queueWait.observe(
        { attempt: job.attemptsMade === 0 ? 'first' : 'retry' },
        Math.max(0, job.processedOn - job.timestamp) / 1000,
      );
    },
    modelCall(call) {
      modelCalls.inc({ model: call.model, outcome: call.outcome });
      const labels = { model: call.model, outcome: call.outcome };
      if (call.promptTokens > 0) modelTokens.inc({ ...labels, kind: 'prompt' }, call.promptTokens);
      if (call.completionTokens > 0)
        modelTokens.inc({ ...labels, kind: 'completion' }, call.completionTokens);
    },
    retry(code) {
      retries.inc({ code });
    },
    requeued(reason) {
      requeues.inc({ reason });
    },
    finished(outcome, code) {
      extractions.inc({ outcome, code: code ?? 'none' });
    },
    watch(stats) {
      read = stats;
    },
    async running(work) {
      inProgress.inc();
      try {
        return await work();
      } finally {
        inProgress.dec();
      }
    },
  };
}
