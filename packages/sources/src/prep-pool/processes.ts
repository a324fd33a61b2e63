import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PrepRequest, PrepTask } from './tasks.ts';
import type { ChildAnswer, ChildMessage } from './child.ts';
import { systemTool } from '../isolation/system-tool.ts';

/*
 * The preparation processes: one task at a time each, up to `size`, each started under
 * `prlimit --data` so that everything it allocates (V8's heap, Buffers, libvips' pixels, pdf.js'
 * typed arrays) counts against one bound. Written here rather than taken from a pool library:
 * piscina and tinypool bound a thread's V8 heap only, and workerpool's process workers report a
 * dead worker on `exit`, before its stderr (where V8 and libvips say they ran out of memory) has
 * been read, and give no way to start the child under another program. What is left is small:
 * a queue, a process per slot, a deadline timer and a kill.
 */

export interface ProcessOptions {
  size: number;
  /** The child entry (child.ts from sources, child.js beside a bundle). */
  entry: URL;
  /** `prlimit` and its arguments, or none to run the child unbounded. */
  prefix: string[];
  /** Node's own flags for the child: the parent's (its TypeScript transform) and the heap cap. */
  execArgv: string[];
}

/** How a submitted task ended when no answer came back. */
export type Ended =
  | { how: 'timeout'; ms: number }
  | { how: 'died'; code: number | null; signal: NodeJS.Signals | null; stderr: string }
  | { how: 'load-failed'; code: number | null; signal: NodeJS.Signals | null; stderr: string }
  | { how: 'closed' };

export class TaskEnded extends Error {
  constructor(readonly ended: Ended) {
    super(`preparation task ended: ${ended.how}`);
  }
}

interface Job {
  request: PrepRequest;
  timeoutMs: number;
  resolve: (answer: ChildAnswer) => void;
  reject: (err: TaskEnded) => void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  job?: Job | undefined;
  timer?: NodeJS.Timeout | undefined;
  /** Set when the pool killed it (deadline, close): its end is already accounted for. */
  killed: boolean;
  /** The last few kilobytes the child wrote to stderr, read when it dies. */
  stderr: string;
  closed: Promise<void>;
}

const STDERR_KEPT = 8192;

/*
 * A child outlives a worker that is killed outright (SIGKILL, the kernel's OOM killer) unless the
 * kernel ends it: its 'disconnect' handler runs only between tasks, and a task is seconds of
 * synchronous parsing, so a child busy with a hostile file kept its CPU and memory until the
 * task's end, or for ever if the file made it loop. setpriv (util-linux, as prlimit) asks the
 * kernel for SIGKILL when the parent dies (PR_SET_PDEATHSIG), and the setting survives the exec
 * into prlimit and node. Where there is no setpriv (not Linux), the children go without.
 */
const SETPRIV = systemTool('setpriv');
const DIES_WITH_PARENT = SETPRIV ? [SETPRIV, '--pdeathsig', 'KILL', '--'] : [];

export class PrepProcesses {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  closed = false;

  constructor(private readonly opts: ProcessOptions) {}

  get stats(): { processes: number; pending: number } {
    let running = 0;
    for (const slot of this.slots) if (slot.job) running++;
    return { processes: this.slots.size, pending: running + this.queue.length };
  }

  submit(task: PrepTask | 'warm', timeoutMs: number): Promise<ChildAnswer> {
    if (this.closed) return Promise.reject(new TaskEnded({ how: 'closed' }));
    return new Promise<ChildAnswer>((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, task }, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Hands queued jobs to idle ready processes, starting processes while below the size. */
  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.ready && !slot.job && !slot.killed) this.start(slot, this.queue.shift()!);
    }
    let starting = 0;
    for (const slot of this.slots) if (!slot.ready) starting++;
    while (this.slots.size < this.opts.size && starting < this.queue.length) {
      this.spawn();
      starting++;
    }
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.child.send(job.request satisfies PrepRequest);
  }

  private spawn(): void {
    const [execPath, ...prefixArgs] = [...DIES_WITH_PARENT, ...this.opts.prefix];
    const child = fork(fileURLToPath(this.opts.entry), [], {
      // fork's IPC channel is a file descriptor the child inherits, so it survives setpriv and
      // prlimit exec'ing node: their arguments go first, then node and its own flags.
      ...(execPath === undefined
        ? { execArgv: this.opts.execArgv }
        : { execPath, execArgv: [...prefixArgs, process.execPath, ...this.opts.execArgv] }),
      // Structured clone instead of JSON: bytes travel as bytes, not as arrays of numbers.
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    let closed!: () => void;
    const slot: Slot = {
      child,
      ready: false,
      killed: false,
      stderr: '',
      closed: new Promise((resolve) => (closed = resolve)),
    };
    this.slots.add(slot);
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      slot.stderr = (slot.stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    child.on('message', (message: ChildMessage) => this.onMessage(slot, message));
    // 'close', not 'exit': only then has all the child wrote to stderr been read.
    child.on('close', (code, signal) => {
      this.onClose(slot, code, signal);
      closed();
    });
    // A child that could not be started at all (spawn error) is closed too; nothing more to do.
    child.on('error', () => undefined);
  }

  private onMessage(slot: Slot, message: ChildMessage): void {
    if (message === 'ready') {
      slot.ready = true;
      this.dispatch();
      return;
    }
    const job = slot.job;
    if (!job || slot.killed) return;
    if ('started' in message) {
      // The deadline counts from here, not while the task waited its turn or its bytes travelled.
      slot.timer = setTimeout(() => {
        this.kill(slot);
        job.reject(new TaskEnded({ how: 'timeout', ms: job.timeoutMs }));
      }, job.timeoutMs);
      return;
    }
    clearTimeout(slot.timer);
    slot.job = undefined;
    job.resolve(message.answer);
    this.dispatch();
  }

  private onClose(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    if (!slot.killed) {
      if (slot.job) {
        slot.job.reject(new TaskEnded({ how: 'died', code, signal, stderr: slot.stderr }));
      } else if (!slot.ready) {
        // It could not even load its modules: starting another would end the same way, so
        // what waits fails instead (and the next submission tries again).
        const ended: Ended = { how: 'load-failed', code, signal, stderr: slot.stderr };
        for (const job of this.queue.splice(0)) job.reject(new TaskEnded(ended));
      }
    }
    slot.job = undefined;
    if (!this.closed) this.dispatch();
  }

  private kill(slot: Slot): void {
    slot.killed = true;
    slot.job = undefined;
    clearTimeout(slot.timer);
    slot.child.kill('SIGKILL');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closing = [...this.slots].map((slot) => slot.closed);
    for (const job of this.queue.splice(0)) job.reject(new TaskEnded({ how: 'closed' }));
    for (const slot of this.slots) {
      slot.job?.reject(new TaskEnded({ how: 'closed' }));
      this.kill(slot);
    }
    await Promise.all(closing);
  }
}
