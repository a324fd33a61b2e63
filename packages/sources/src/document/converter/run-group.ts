import { spawn } from 'node:child_process';

export interface GroupResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last few KiB the command wrote to stderr and stdout, for the log. */
  output: string;
  /** Killed at its deadline. */
  timedOut: boolean;
  /** Killed because the caller's signal aborted. */
  aborted: boolean;
}

const KEEP_OUTPUT = 4096;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs a command as the leader of its own process group and waits for it, under a deadline:
 * at the deadline, or when `signal` aborts, the whole group is killed (a converter's helper
 * processes too, not only the one started). The group is killed once the command has exited as
 * well, so nothing it left behind keeps running. Never rejects for the command's own failure:
 * the caller reads the result.
 */
export function runGroup(
  argv: readonly string[],
  opts: {
    env: Record<string, string>;
    cwd: string;
    timeoutMs: number;
    signal?: AbortSignal | undefined;
  },
): Promise<GroupResult> {
  return new Promise((resolve, reject) => {
    const [command, ...args] = argv;
    if (!command) return reject(new Error('no command to run'));
    let output = '';
    let timedOut = false;
    let aborted = false;
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-KEEP_OUTPUT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup(child.pid);
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    const done = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (err) => {
      done();
      reject(err);
    });
    // 'exit', not 'close': a straggler holding the pipes open must not hold the caller too.
    child.once('exit', (code, signal) => {
      done();
      killGroup(child.pid);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ code, signal, output, timedOut, aborted });
    });
  });
}
