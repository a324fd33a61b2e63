import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ExtractionFailure, isFailureCode, type PreparedSource } from '@xt/contract';
import type { PreparedPdf } from '../sources/pdf/prepare-pdf.ts';
import type { ImageTask, PdfTask, PrepRequest, PrepResponse, PrepTask } from './tasks.ts';

/*
 * Why worker threads: rasterising a page or resampling a photo is tens to hundreds of
 * milliseconds of synchronous CPU (pdf.js parsing and canvas drawing run on the calling thread).
 * On the worker's main loop that would stall BullMQ lock renewals and the model calls in flight.
 * A thread pool keeps that loop free with no extra queue or process to operate: bytes move by
 * transfer (no copy), results are plain data, and a thread stuck on a hostile file is
 * terminated on a deadline and replaced. A BullMQ sandboxed processor would isolate the whole
 * job (fetch and model call too) in a child process, costing a process per concurrent job and
 * serialising every byte; a separate queue would add a hop and a second failure path for work
 * that never outlives its job.
 *
 * The thread entry is TypeScript. Node 24 strips types natively, and a Worker inherits the
 * parent's --import hooks (tsx in production), so the same file loads under `tsx` and vitest.
 */

export interface PrepPoolOptions {
  /** Threads at most; default: the machine's available parallelism. */
  size?: number;
  /** A task running longer is abandoned and its thread terminated. */
  taskTimeoutMs: number;
  /**
   * V8 heap cap per thread, so a hostile file cannot take the process's memory. At least 8:
   * below a few megabytes V8 aborts the whole process instead of stopping the thread. The
   * modules alone need about 16; 256 or more is sensible.
   */
  maxHeapMb?: number;
}

export interface RunOptions {
  timeoutMs?: number;
}

export interface PrepPool {
  /**
   * Runs the task on a pool thread. Takes ownership of `task.bytes`: its memory is transferred
   * to the thread, so the caller's view is empty afterwards.
   */
  runPrep(task: ImageTask, opts?: RunOptions): Promise<PreparedSource>;
  runPrep(task: PdfTask, opts?: RunOptions): Promise<PreparedPdf>;
  readonly stats: { threads: number; busy: number; queued: number };
  /**
   * Starts every thread and waits until each has loaded its modules (about a second under
   * tsx), so the first jobs after start-up do not pay for it. Optional.
   */
  warm(): Promise<void>;
  /** Rejects queued work and terminates every thread. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  task: PrepTask;
  timeoutMs: number;
  resolve(result: PreparedSource | PreparedPdf): void;
  reject(err: ExtractionFailure): void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Modules loaded: a failure before this is the thread's, not the source's. */
  ready: Promise<void>;
  isReady: boolean;
}

// From sources the thread is thread.ts beside this file; in a bundle (`dist/main.js`) the build
// emits it as dist/thread.js beside the bundle.
const THREAD_URL = import.meta.url.endsWith('.ts')
  ? new URL('./thread.ts', import.meta.url)
  : new URL('./thread.js', import.meta.url);

/**
 * Hands the bytes to the thread without copying when they own their whole buffer. A view into
 * a larger buffer (Node's Buffer pool, a slice) must not give that buffer away, and memory
 * owned by native code (sharp's output, for one) cannot be transferred: those are copied.
 */
function post(worker: Worker, id: number, task: PrepTask): void {
  const bytes = task.bytes;
  const whole =
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  if (whole) {
    try {
      worker.postMessage({ id, task } satisfies PrepRequest, [bytes.buffer]);
      return;
    } catch (err) {
      if (!(err instanceof Error && err.name === 'DataCloneError')) throw err;
    }
  }
  const copy = new Uint8Array(bytes);
  worker.postMessage({ id, task: { ...task, bytes: copy } } satisfies PrepRequest, [copy.buffer]);
}

function failureFrom(error: {
  code: string;
  message: string;
  retryable: boolean;
}): ExtractionFailure {
  return new ExtractionFailure(isFailureCode(error.code) ? error.code : 'INTERNAL', error.message, {
    retryable: error.retryable,
  });
}

export function createPrepPool(options: PrepPoolOptions): PrepPool {
  const size = Math.max(1, options.size ?? availableParallelism());
  if (options.maxHeapMb !== undefined && options.maxHeapMb < 8) {
    throw new RangeError('maxHeapMb must be at least 8: V8 aborts the process below that.');
  }
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Slot {
    const worker = new Worker(THREAD_URL, {
      resourceLimits: options.maxHeapMb ? { maxOldGenerationSizeMb: options.maxHeapMb } : undefined,
    });
    const ready = Promise.withResolvers<void>();
    // Nobody may be waiting for readiness; a thread that never gets ready fails its job instead.
    ready.promise.catch(() => undefined);
    const slot: Slot = {
      worker,
      job: undefined,
      timer: undefined,
      ready: ready.promise,
      isReady: false,
    };
    worker.unref();
    worker.on('message', (response: PrepResponse | { ready: true }) => {
      if ('ready' in response) {
        slot.isReady = true;
        ready.resolve();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== response.id) return;
      finish(slot);
      if (response.ok) job.resolve(response.result);
      else job.reject(failureFrom(response.error));
      dispatch();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const job = slot.job;
      discard(slot);
      ready.reject(err);
      if (job) {
        job.reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY' && slot.isReady
            ? new ExtractionFailure(
                'SOURCE_TOO_LARGE',
                'The source needs more memory to prepare than allowed.',
                {
                  cause: err,
                },
              )
            : new ExtractionFailure('INTERNAL', `Preparation thread failed: ${err.message}`, {
                retryable: true,
                cause: err,
              }),
        );
      }
      dispatch();
    });
    worker.on('exit', (exitCode) => {
      const job = slot.job;
      discard(slot);
      ready.reject(new Error(`Preparation thread exited with code ${exitCode}.`));
      job?.reject(
        new ExtractionFailure('INTERNAL', 'Preparation thread exited.', { retryable: true }),
      );
      dispatch();
    });
    slots.push(slot);
    return slot;
  }

  function finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    slot.worker.unref();
  }

  /** Forgets a thread (crashed, timed out or closed); a new one is spawned when work needs it. */
  function discard(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.job = undefined;
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
  }

  function start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      discard(slot);
      void slot.worker.terminate();
      job.reject(
        new ExtractionFailure(
          'TIMEOUT',
          `Preparing the source took longer than ${job.timeoutMs} ms.`,
          {
            retryable: true,
          },
        ),
      );
      dispatch();
    }, job.timeoutMs);
    try {
      post(slot.worker, job.id, job.task);
    } catch (err) {
      finish(slot);
      job.reject(
        new ExtractionFailure('INTERNAL', 'Could not hand the source to a thread.', { cause: err }),
      );
    }
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const slot = slots.find((s) => !s.job) ?? (slots.length < size ? spawn() : undefined);
      const job = slot && queue.shift();
      if (!slot || !job) return;
      start(slot, job);
    }
  }

  function runPrep(task: PrepTask, opts: RunOptions = {}): Promise<PreparedSource | PreparedPdf> {
    if (closed) {
      return Promise.reject(
        new ExtractionFailure('INTERNAL', 'The preparation pool is closed.', { retryable: true }),
      );
    }
    return new Promise((resolve, reject) => {
      queue.push({
        id: nextId++,
        task,
        timeoutMs: opts.timeoutMs ?? options.taskTimeoutMs,
        resolve,
        reject,
      });
      dispatch();
    });
  }

  return {
    runPrep: runPrep as PrepPool['runPrep'],
    get stats() {
      return {
        threads: slots.length,
        busy: slots.filter((s) => s.job).length,
        queued: queue.length,
      };
    },
    async warm() {
      while (!closed && slots.length < size) spawn();
      await Promise.all(slots.map((s) => s.ready));
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) {
        job.reject(
          new ExtractionFailure('INTERNAL', 'The preparation pool closed.', { retryable: true }),
        );
      }
      const workers = slots.map((s) => s.worker);
      for (const slot of [...slots]) {
        const job = slot.job;
        discard(slot);
        job?.reject(
          new ExtractionFailure('INTERNAL', 'The preparation pool closed.', { retryable: true }),
        );
      }
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
