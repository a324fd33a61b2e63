/**
 * Sections that exercise the worker's own code (documents, webpages, tokens) run in a child
 * process, so its memory and its Chromium are measured apart from the harness. The child prints
 * one `RESULT <json>` line; the parent reads it and the child's peak memory.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { MemoryWatch, type KindPeak } from './memory.ts';
import { commOf, processTree } from './proc.ts';
import { REPO_ROOT } from './stack.ts';

export function emitResult(value: unknown): void {
  console.log(`RESULT ${JSON.stringify(value)}`);
}

export async function runChild<T>(
  script: string,
  args: string[],
  log: (line: string) => void,
): Promise<{ result: T; memory: Record<string, KindPeak> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid!;
  const watch = new MemoryWatch(() => {
    const tree = processTree([pid]).filter((p) => p !== pid);
    return {
      'worker code (sources)': [pid],
      Chromium: tree.filter((p) => /chrom/i.test(commOf(p))),
    };
  });
  await watch.start();
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const line of chunk.toString().split('\n')) {
      if (line.startsWith('# ')) log(`  ${line.slice(2)}`);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const memory = await watch.stop();
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (code !== 0 || !line) {
    throw new Error(`${script} exited with ${code}:\n${err.slice(-3000)}${out.slice(-2000)}`);
  }
  return { result: JSON.parse(line.slice('RESULT '.length)) as T, memory };
}

/** Progress lines a child prints for the parent's log. */
export const progress = (line: string): void => console.log(`# ${line}`);

export async function timed(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
