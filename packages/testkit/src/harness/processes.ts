import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/**
 * Node's flags to run a TypeScript entry point from its sources, as vitest resolves them.
 * Node's own type transform, not tsx: the suite starts a few hundred API, worker and CLI
 * processes, and loading the API and a worker cost about 1.5 s more CPU each through tsx's
 * loader. The transform, not plain stripping, because some classes use parameter properties.
 */
export const TS_NODE_ARGS: readonly string[] = [
  '--experimental-transform-types',
  // The flag's one warning on every start; other warnings still print.
  '--disable-warning=ExperimentalWarning',
  '--conditions=@xt/source',
];

export interface AppProcess {
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts an app entry point (TypeScript, see TS_NODE_ARGS) as a real child process, and resolves once
 * it prints `readyText` (or rejects with its output if it exits first).
 */
export function startAppProcess(
  entry: string,
  env: Record<string, string>,
  readyText: string,
  timeoutMs = 60_000,
): Promise<AppProcess> {
  return startCommand(
    process.execPath,
    [...TS_NODE_ARGS, `${REPO_ROOT}/${entry}`],
    { ...process.env, ...env },
    readyText,
    timeoutMs,
  );
}

/** Starts any program, resolving once its stdout or stderr shows `readyText`. */
export async function startCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readyText: string,
  timeoutMs = 60_000,
): Promise<AppProcess> {
  const entry = [command, ...args].join(' ');
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const append = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Nobody will stop a process that never became ready: it must not outlive the test.
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not become ready in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = () => {
      if (out.includes(readyText)) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code} before it was ready:\n${out}`));
    });
  });
  return {
    child,
    output: () => out,
    stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null)
        return Promise.resolve(child.exitCode);
      return new Promise((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', (code) => {
          clearTimeout(kill);
          resolve(code);
        });
        child.kill(signal);
      });
    },
  };
}

/**
 * Runs an app entry point (TypeScript, see TS_NODE_ARGS) that is expected to end by itself, and resolves with
 * its exit code and everything it printed; it is killed after `timeoutMs`.
 */
export function runAppToExit(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...TS_NODE_ARGS, `${REPO_ROOT}/${entry}`], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(kill);
      resolve({ code, output });
    });
  });
}
