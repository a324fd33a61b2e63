/**
 * `npm start` as a person's terminal or a supervisor runs it: `npm start` itself, in a process
 * group of its own (as a shell puts a foreground job), with its output collected; and the
 * process tree under it, read from /proc (Linux), to tell whether anything it started is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { REPO_ROOT, waitFor } from '@xt/testkit';

export interface NpmStart {
  npm: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

export function npmStart(env: Record<string, string>): NpmStart {
  const npm = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('close', resolve));
  return { npm, output: () => out, exited };
}

/** `state` is the one-letter state of /proc/<pid>/stat: Z for a zombie (exited, not reaped). */
function stat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: read from after its last `)`.
    const [state = '', ppid = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state };
  } catch {
    return undefined;
  }
}

/** Every process below `root`, however deep. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const info = stat(pid);
    if (info) children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/** True once none of `pids` runs (gone, or a zombie waiting to be reaped). */
export function allGone(pids: number[]): boolean {
  return pids.every((pid) => {
    const info = stat(pid);
    return info === undefined || info.state === 'Z';
  });
}

/** The process `npm start` started (npm's one child), once it is there. */
export function startedByNpm(npmPid: number): Promise<number> {
  return waitFor(() => {
    const direct = descendants(npmPid).filter((pid) => stat(pid)?.ppid === npmPid);
    return direct.length === 1 ? direct[0] : undefined;
  }, 30_000);
}
