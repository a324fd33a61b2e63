import { availableParallelism } from 'node:os';
import { ExtractionFailure, isFailureCode, type PreparedSource } from '@xt/contract';
import { requireSystemTool } from '../isolation/system-tool.ts';
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
  PrepResponse,
  PrepTask,
  PreviewTask,
  SpreadsheetTask,
  TaskResult,
  TextTask,
} from './tasks.ts';
import type { SpreadsheetResult } from '../spreadsheet/prepare-spreadsheet.ts';
import { PrepProcesses, TaskEnded, type Ended } from './processes.ts';

/*
 * Why a pool beside the event loop: rasterising a page or resampling a photo is tens to hundreds
 * of milliseconds of synchronous CPU (pdf.js parsing and canvas drawing run on the calling
 * thread). On the worker's main loop that would stall BullMQ lock renewals and the model calls
 * in flight. A BullMQ sandboxed processor would isolate the whole job (fetch and model call too),
 * costing a process per concurrent job; a separate queue would add a hop and a second failure
 * path for work that never outlives its job.
 *
 * Why processes, not threads (as until #38): a worker thread's bound (`resourceLimits`) caps its
 * V8 heap only. Buffers, libvips' pixels, canvas and pdf.js' typed arrays live outside it, so a
 * file that makes a parser allocate natively could take the whole worker process, and every
 * account's jobs in it. Each task now runs alone in a child process started under
 * `prlimit --data=PREP_MEMORY_MB` (RLIMIT_DATA: every private writable mapping, the heap and
 * native memory alike, but not the address space V8 only reserves, which `--as` would count):
 * an allocation past it fails in that process only, which fails its task `SOURCE_TOO_LARGE` and
 * is replaced. The cost is a copy: bytes travel over the IPC channel instead of being moved
 * (docs/performance.md gives the figure), and each process loads its own sharp and pdf.js.
 * Threads are not kept as an option: prlimit is util-linux, on every Linux this runs on (the
 * image's too), and `PREP_MEMORY_MB=0` runs the processes without the bound where it is missing.
 *
 * This file adds the service's rules on top of processes.ts: the deadline per task, failures as
 * contract codes. The child entry is TypeScript; a forked process inherits the parent's execArgv
 * (Node's type transform under `npm start` and the test harness; Node 24 strips types by
 * itself), so the same file loads there and under vitest; built apps run its compiled copy.
 */

export interface PrepPoolOptions {
  /** Processes at most; default: the machine's available parallelism. */
  size?: number;
  /** A task running longer is abandoned and its process killed. */
  taskTimeoutMs: number;
  /** V8 heap cap per process (`--max-old-space-size`), within `maxMemoryMb`. */
  maxHeapMb?: number;
  /**
   * All the memory a process may have (prlimit's data bound), heap and native alike; 0 or absent:
   * none. Node itself counts about 600 MiB against it before loading anything (V8's code range is
   * mapped writable), so below about 1024 a process cannot load its modules.
   */
  maxMemoryMb?: number;
}

export interface RunOptions {
  timeoutMs?: number;
}

export interface PrepPool {
  /**
   * Runs the task in a pool process. `task.bytes` is copied to it; the caller's are left as
   * they were.
   */
  runPrep(task: ImageTask, opts?: RunOptions): Promise<PreparedSource>;
  runPrep(task: PdfTask, opts?: RunOptions): Promise<PreparedPdf>;
  runPrep(task: CutPdfTask, opts?: RunOptions): Promise<Uint8Array[]>;
  runPrep(task: TextTask, opts?: RunOptions): Promise<PreparedSource>;
  runPrep(task: EmailTask, opts?: RunOptions): Promise<ReadMessage>;
  runPrep(task: SpreadsheetTask, opts?: RunOptions): Promise<SpreadsheetResult>;
  runPrep(task: PreviewTask, opts?: RunOptions): Promise<PagePreview[]>;
  runPrep(task: AcceptChangesTask, opts?: RunOptions): Promise<AcceptedChanges>;
  /** `threads` counts the pool's processes (the name the metrics and health answers use). */
  readonly stats: { threads: number; busy: number; queued: number };
  /**
   * Starts every process (each loads its modules, about a second from sources, so the first jobs
   * after start-up do not pay for it) and resolves once they have; rejects when they cannot
   * load. Optional.
   */
  warm(): Promise<void>;
  /** Rejects queued and running work and kills every process. */
  close(): Promise<void>;
}

// From sources the entry is child.ts beside this file; in a bundle (`dist/main.js`) the build
// emits it as dist/child.js beside the bundle.
const CHILD_URL = import.meta.url.endsWith('.ts')
  ? new URL('./child.ts', import.meta.url)
  : new URL('./child.js', import.meta.url);

const closedFailure = () =>
  new ExtractionFailure('INTERNAL', 'The preparation pool closed.', { retryable: true });

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
 * A process that died of its memory: V8 and libvips say so on stderr and abort (SIGABRT, or
 * SIGTRAP/SIGILL from V8's own crash), a C++ allocation fails with bad_alloc.
 */
function outOfMemory(ended: Extract<Ended, { how: 'died' }>): boolean {
  return (
    /out of memory|allocation failed|bad_alloc|failed to allocate/i.test(ended.stderr) ||
    ended.signal === 'SIGABRT' ||
    ended.signal === 'SIGTRAP' ||
    ended.signal === 'SIGILL'
  );
}

const exitOf = (ended: { code: number | null; signal: NodeJS.Signals | null }) =>
  ended.signal ?? `exit code ${ended.code}`;

/**
 * What a task that got no answer means for the extraction. Text and messages are read in time
 * linear in their length, so such a task that overruns its deadline or its memory holds
 * something a parser cannot cope with (nesting, say): trying again would only end the same way.
 * Running out of memory is the source's doing, not the process's: a process is only given a
 * task once it has loaded its modules.
 */
export function endedFailure(ended: Ended, kind: PrepTask['kind'] | 'warm'): ExtractionFailure {
  switch (ended.how) {
    case 'closed':
      return closedFailure();
    case 'timeout':
      return new ExtractionFailure(
        'TIMEOUT',
        `Preparing the source took longer than ${ended.ms} ms.`,
        { retryable: !linear(kind) },
      );
    case 'load-failed':
      return new ExtractionFailure(
        'INTERNAL',
        `Preparation process failed to start (${exitOf(ended)}): ${ended.stderr.slice(-500)}`,
        { retryable: true },
      );
    case 'died':
      if (!outOfMemory(ended)) {
        return new ExtractionFailure('INTERNAL', `Preparation process died (${exitOf(ended)}).`, {
          retryable: true,
        });
      }
      return linear(kind)
        ? new ExtractionFailure(
            'SOURCE_UNREADABLE',
            'The source needs more memory to read than allowed (it nests too deeply?).',
          )
        : new ExtractionFailure(
            'SOURCE_TOO_LARGE',
            'The source needs more memory to prepare than allowed.',
          );
  }
}

/** `prlimit` and its bound, or nothing when the pool runs unbounded. */
function memoryPrefix(maxMemoryMb: number | undefined): string[] {
  if (!maxMemoryMb) return [];
  const prlimit = requireSystemTool(
    'prlimit',
    '(util-linux) to bound the preparation processes’ memory (PREP_MEMORY_MB=0 runs them unbounded)',
  );
  return [prlimit, `--data=${maxMemoryMb * 1024 * 1024}`, '--'];
}

/** The parent's flags (its TypeScript transform), less a heap cap of its own, plus the pool's. */
function childExecArgv(maxHeapMb: number | undefined): string[] {
  const inherited = process.execArgv.filter((arg) => !arg.startsWith('--max-old-space-size'));
  return maxHeapMb ? [...inherited, `--max-old-space-size=${maxHeapMb}`] : inherited;
}

export function createPrepPool(options: PrepPoolOptions): PrepPool {
  const size = Math.max(1, options.size ?? availableParallelism());
  if (options.maxHeapMb !== undefined && options.maxHeapMb < 8) {
    throw new RangeError('maxHeapMb must be at least 8: V8 aborts the process below that.');
  }
  const processes = new PrepProcesses({
    size,
    entry: CHILD_URL,
    prefix: memoryPrefix(options.maxMemoryMb),
    execArgv: childExecArgv(options.maxHeapMb),
  });

  async function submit(task: PrepTask | 'warm', timeoutMs: number) {
    try {
      return await processes.submit(task, timeoutMs);
    } catch (err) {
      if (err instanceof TaskEnded) {
        throw endedFailure(err.ended, task === 'warm' ? 'warm' : task.kind);
      }
      throw err;
    }
  }

  async function runPrep(task: PrepTask, opts: RunOptions = {}): Promise<TaskResult> {
    const response = (await submit(task, opts.timeoutMs ?? options.taskTimeoutMs)) as PrepResponse;
    if (!response.ok) throw failureFrom(response.error);
    return response.result;
  }

  return {
    runPrep: runPrep as PrepPool['runPrep'],
    get stats() {
      const { processes: threads, pending } = processes.stats;
      const busy = Math.min(pending, threads);
      return { threads, busy, queued: pending - busy };
    },
    async warm() {
      try {
        await Promise.all(
          Array.from({ length: size }, () => submit('warm', options.taskTimeoutMs)),
        );
      } catch (err) {
        // A worker stopped right after it started closes the pool while it warms: nothing
        // failed, so there is nothing to report.
        if (processes.closed) return;
        throw err;
      }
    },
    close: () => processes.close(),
  };
}
