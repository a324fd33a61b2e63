import { readFile, readlink, realpath, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone we may not signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function readPid(pidFile: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.split('\n', 1)[0]?.trim() ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Waits until `pid` is gone; false when it is still alive after `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Sends `signal`, then SIGKILL when the process has not exited after `graceMs`. */
export async function terminate(
  pid: number,
  signal: NodeJS.Signals,
  graceMs: number,
): Promise<void> {
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  if (await waitForExit(pid, graceMs)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  await waitForExit(pid, 5_000);
}

interface ProcessFacts {
  cwd: string;
  parentPid: number;
  parentName: string | undefined;
}

/** Linux only (reads /proc); undefined elsewhere or when the process is gone. */
async function processFacts(pid: number): Promise<ProcessFacts | undefined> {
  try {
    const cwd = await readlink(`/proc/${pid}/cwd`);
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const parentPid = Number.parseInt(/^PPid:\s*(\d+)/m.exec(status)?.[1] ?? '', 10);
    const parentName = await readFile(`/proc/${parentPid}/comm`, 'utf8').then(
      (name) => name.trim(),
      () => undefined,
    );
    return { cwd, parentPid, parentName };
  } catch {
    return undefined;
  }
}

export interface StaleCheck {
  /** Human name of the server, for messages. */
  server: string;
  /** The pid file the server writes while it runs. */
  pidFile: string;
  /** The directory the server runs in (its cwd), to tell our process from a reused pid. */
  dir: string;
}

// Where orphans end up: init, or a sub-reaper standing in for it.
const REAPERS = new Set(['systemd', 'init', 'tini', 'dumb-init', 'docker-init']);

/**
 * Clears what a crashed earlier run left behind, before starting a server in `dir`:
 * a pid file naming a dead or unrelated process is removed; a server still running in `dir`
 * whose starter died (orphaned, re-parented to init) is shut down. A server in `dir` whose
 * starter is still alive is in use by someone else, and that is an error.
 */
export async function clearStaleServer(check: StaleCheck): Promise<void> {
  const pid = await readPid(check.pidFile);
  if (pid === undefined) return;
  if (!isAlive(pid)) {
    await rm(check.pidFile, { force: true });
    return;
  }
  const facts = await processFacts(pid);
  if (facts === undefined) {
    throw new Error(
      `${check.server}: ${check.pidFile} names process ${pid}, which is running; stop it, or delete the pid file if it is not a ${check.server}`,
    );
  }
  const dir = await realpath(check.dir);
  if (facts.cwd !== dir) {
    // The pid was reused by an unrelated process after a crash.
    await rm(check.pidFile, { force: true });
    return;
  }
  const orphaned =
    facts.parentPid === 1 || facts.parentName === undefined || REAPERS.has(facts.parentName);
  if (!orphaned) {
    throw new Error(
      `${check.server} is already running in ${dir} (pid ${pid}, started by pid ${facts.parentPid}); stop that process or use another data directory`,
    );
  }
  await terminate(pid, 'SIGINT', 30_000);
  await rm(check.pidFile, { force: true });
}
