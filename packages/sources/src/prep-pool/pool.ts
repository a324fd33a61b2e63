import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ExtractionFailure, isFailureCode, type PreparedSource } from '@xt/contract';
import type { PagePreview } from '../previews/render.ts';
import type { PreparedPdf } from '../pdf/prepare-pdf.ts';
import type { ReadMessage } from '../email/message.ts';
import type { AcceptedChanges } from '../document/accept-changes.ts';
import type {
  AcceptChangesTask,
  EmailTask,
  ImageTask,
  PdfTask,
  CutPdfTask,
  PrepRequest,
  PrepResponse,
  PrepTask,
  PreviewTask,
  SpreadsheetTask,
  TaskResult,
  TextTask,
} from './tasks.ts';
import type { SpreadsheetResult } from '../spreadsheet/prepare-spreadsheet.ts';

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
 * The threads are piscina's (queueing, spawning up to `size`, replacing a thread that died,
 * terminating one whose task is aborted); this file adds the service's rules on top: the
 * deadline per task, failures as contract codes, and moving the bytes instead of copying them.
 *
 * The thread entry is TypeScript. Node 24 strips types natively, and a Worker inherits the
 * parent's execArgv (Node's type transform under `npm start` and the test harness), so the same
 * file loads there and under vitest; built apps run its compiled copy.
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
  runPrep(task: CutPdfTask, opts?: RunOptions): Promise<Uint8Array[]>;
  runPrep(task: TextTask, opts?: RunOptions): Promise<PreparedSource>;
  runPrep(task: EmailTask, opts?: RunOptions): Promise<ReadMessage>;
  runPrep(task: SpreadsheetTask, opts?: RunOptions): Promise<SpreadsheetResult>;
  runPrep(task: PreviewTask, opts?: RunOptions): Promise<PagePreview[]>;
  runPrep(task: AcceptChangesTask, opts?: RunOptions): Promise<AcceptedChanges>;
  readonly stats: { threads: number; busy: number; queued: number };
  /**
   * Starts every thread (each loads its modules, about a second from sources, so the first jobs
   * after start-up do not pay for it) and resolves once a thread has taken work; rejects when
   * the threads cannot load. Optional.
   */
  warm(): Promise<void>;
  /** Rejects queued work and terminates every thread. */
  close(): Promise<void>;
}

type Result = TaskResult;

// From sources the thread is thread.ts beside this file; in a bundle (`dist/main.js`) the build
// emits it as dist/thread.js beside the bundle.
const THREAD_URL = import.meta.url.endsWith('.ts')
  ? new URL('./thread.ts', import.meta.url)
  : new URL('./thread.js', import.meta.url);

const closedFailure = () =>
  new ExtractionFailure('INTERNAL', 'The preparation pool closed.', { retryable: true });

/**
 * The bytes to move to the thread without copying, when they own their whole buffer. A view into
 * a larger buffer (Node's Buffer pool, a slice) must not give that buffer away: it is copied.
 */
function movable(task: PrepTask): { task: PrepTask; buffer: ArrayBuffer } {
  const bytes = task.bytes;
  const whole =
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  if (whole) return { task, buffer: bytes.buffer };
  const copy = new Uint8Array(bytes);
  return { task: { ...task, bytes: copy }, buffer: copy.buffer };
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

/** Tasks read in time linear in their input (text, a message's MIME structure). */
const linear = (kind: PrepTask['kind'] | 'warm') => kind === 'text' || kind === 'email';

/**
 * What a rejection from piscina means for the extraction. Text and messages are read in time
 * linear in their length, so such a task that overruns its deadline or the heap holds something
 * a parser cannot cope with (nesting, say): trying again would only end the same way.
 */
function threadFailure(
  err: unknown,
  timedOut: number | undefined,
  kind: PrepTask['kind'] | 'warm',
): ExtractionFailure {
  if (err instanceof ExtractionFailure) return err;
  if (timedOut !== undefined) {
    return new ExtractionFailure(
      'TIMEOUT',
      `Preparing the source took longer than ${timedOut} ms.`,
      { retryable: !linear(kind) },
    );
  }
  const error = err as Error & { code?: string };
  // piscina only hands a task to a thread that has loaded its modules, so running out of
  // memory here is the source's doing, not the thread's.
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return linear(kind)
      ? new ExtractionFailure(
          'SOURCE_UNREADABLE',
          'The source needs more memory to read than allowed (it nests too deeply?).',
          { cause: err },
        )
      : new ExtractionFailure(
          'SOURCE_TOO_LARGE',
          'The source needs more memory to prepare than allowed.',
          { cause: err },
        );
  }
  return new ExtractionFailure('INTERNAL', `Preparation thread failed: ${error.message}`, {
    retryable: true,
    cause: err,
  });
}

/** One submitted task: its abort switch, and whether it is known to be running. */
interface Pending {
  abort: AbortController;
  running: boolean;
}

type ThreadAnswer = PrepResponse | { warm: true };

/**
 * piscina's threads plus what the service adds per task: the deadline (counted from when a
 * thread picks the task up), moving the bytes, and failures as contract codes.
 */
class PrepThreads {
  private readonly piscina: Piscina<PrepRequest & { started: MessagePort }, ThreadAnswer>;
  private readonly pending = new Set<Pending>();
  private nextId = 1;
  closed = false;

  constructor(size: number, maxHeapMb: number | undefined) {
    this.piscina = new Piscina({
      filename: THREAD_URL.href,
      minThreads: 0,
      maxThreads: size,
      // Threads stay once started: loading pdf.js and sharp again costs about a second.
      idleTimeout: Number.POSITIVE_INFINITY,
      concurrentTasksPerWorker: 1,
      ...(maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } } : {}),
    });
    this.piscina.on('error', (err: unknown) => this.failWaiting(err));
  }

  get stats(): PrepPool['stats'] {
    const threads = this.piscina.threads.length;
    const busy = Math.min(this.pending.size, threads);
    return { threads, busy, queued: this.pending.size - busy };
  }

  /**
   * A thread that dies before it is ready (it could not load its modules) fails no task of
   * piscina's, which stops spawning threads that die that way: fail what waits instead.
   */
  private failWaiting(err: unknown): void {
    const failure = new ExtractionFailure(
      'INTERNAL',
      `Preparation thread failed: ${(err as Error).message}`,
      { retryable: true, cause: err },
    );
    for (const entry of this.pending) if (!entry.running) entry.abort.abort(failure);
  }

  async submit(task: PrepTask | 'warm', timeoutMs: number): Promise<ThreadAnswer> {
    if (this.closed) throw closedFailure();
    const entry: Pending = { abort: new AbortController(), running: false };
    const { port1, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    let timedOut: number | undefined;
    // The deadline runs from the moment a thread starts the task, not while it waits its turn.
    port1.once('message', () => {
      entry.running = true;
      timer = setTimeout(() => {
        timedOut = timeoutMs;
        entry.abort.abort();
      }, timeoutMs);
    });
    port1.unref();
    const moved = task === 'warm' ? undefined : movable(task);
    this.pending.add(entry);
    try {
      return await this.piscina.run(
        { id: this.nextId++, task: moved?.task ?? 'warm', started: port2 },
        {
          signal: entry.abort.signal,
          transferList: moved ? [port2, moved.buffer] : [port2],
        },
      );
    } catch (err) {
      // Memory owned by native code (sharp's output, for one) cannot be moved: runPrep copies it.
      if (err instanceof Error && err.name === 'DataCloneError') throw err;
      const reason: unknown = entry.abort.signal.reason;
      throw threadFailure(
        reason instanceof ExtractionFailure ? reason : err,
        timedOut,
        task === 'warm' ? 'warm' : task.kind,
      );
    } finally {
      clearTimeout(timer);
      port1.close();
      this.pending.delete(entry);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const entry of this.pending) entry.abort.abort(closedFailure());
    await this.piscina.destroy();
  }
}

export function createPrepPool(options: PrepPoolOptions): PrepPool {
  const size = Math.max(1, options.size ?? availableParallelism());
  if (options.maxHeapMb !== undefined && options.maxHeapMb < 8) {
    throw new RangeError('maxHeapMb must be at least 8: V8 aborts the process below that.');
  }
  const threads = new PrepThreads(size, options.maxHeapMb);

  async function runPrep(task: PrepTask, opts: RunOptions = {}): Promise<Result> {
    const timeoutMs = opts.timeoutMs ?? options.taskTimeoutMs;
    const response = (await threads.submit(task, timeoutMs).catch((err: unknown) => {
      if (!(err instanceof Error && err.name === 'DataCloneError')) throw err;
      return threads.submit({ ...task, bytes: new Uint8Array(task.bytes) }, timeoutMs);
    })) as PrepResponse;
    if (!response.ok) throw failureFrom(response.error);
    return response.result;
  }

  return {
    runPrep: runPrep as PrepPool['runPrep'],
    get stats() {
      return threads.stats;
    },
    async warm() {
      try {
        await Promise.all(
          Array.from({ length: size }, () => threads.submit('warm', options.taskTimeoutMs)),
        );
      } catch (err) {
        // A worker stopped right after it started closes the pool while it warms: nothing
        // failed, so there is nothing to report.
        if (threads.closed) return;
        throw err;
      }
    },
    close: () => threads.close(),
  };
}
