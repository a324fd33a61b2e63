/**
 * CPU time and memory of processes, read from /proc (Linux only), so the benchmark counts what
 * every process of the service spent, not what the load generator sees.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

// USER_HZ: clock ticks per second of the utime/stime fields; 100 on every Linux we target.
const TICK_MS = 10;

interface Stat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime + cutime + cstime, in ms: own threads plus children already reaped. */
  cpuMs: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may contain spaces and parentheses: the fields after it start at the last ')'.
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is state (field 3); utime is field 14 → index 11.
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return { pid, ppid: Number(fields[1]), comm, cpuMs: ticks * TICK_MS };
  } catch {
    return undefined; // exited meanwhile
  }
}

function allStats(): Stat[] {
  const stats: Stat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.push(stat);
  }
  return stats;
}

/** `roots` and every process below them. */
export function processTree(roots: readonly number[]): number[] {
  const stats = allStats();
  const children = new Map<number, number[]>();
  for (const s of stats) {
    const list = children.get(s.ppid) ?? [];
    list.push(s.pid);
    children.set(s.ppid, list);
  }
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return [...seen].filter((pid) => stats.some((s) => s.pid === pid));
}

/** Total CPU ms (user + system, reaped children included) of the given processes. */
export function cpuMs(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (readStat(pid)?.cpuMs ?? 0), 0);
}

/** Peak resident set size (VmHWM) in MiB, or 0 when the process is gone. */
export function peakRssMiB(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Proportional set size in MiB: shared pages split between their users, so sums are fair. */
export function pssMiB(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Resets a process's peak RSS so the next reading covers only what follows (needs root or owner). */
export function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted or gone: the peak then covers the process's whole life, which is still true.
  }
}

export function commOf(pid: number): string {
  return readStat(pid)?.comm ?? '';
}
