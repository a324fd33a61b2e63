import type { ChildProcess } from 'node:child_process';

/** Resolves when `child` has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Sends `signal`, then SIGKILL when the process is still there after `graceMs`. */
export async function endProcess(
  child: ChildProcess,
  signal: NodeJS.Signals,
  graceMs: number,
): Promise<void> {
  const gone = exited(child);
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/** Keeps the last `limit` characters a process printed, for assertions and failure messages. */
export function captureOutput(child: ChildProcess, limit = 4_000_000): () => string {
  let out = '';
  const append = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > limit) out = out.slice(-limit / 2);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => out;
}
