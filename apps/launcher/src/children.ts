import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SETTINGS_EXIT_CODE } from '@xt/runtime';
import { REPO_ROOT } from './config.ts';

export interface Supervised {
  name: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

// Built launcher (`dist/*.js`) runs built apps; from sources it runs their TypeScript with
// Node's own type transform (start.ts says why not tsx).
const BUILT = import.meta.url.endsWith('.js');
const FROM_SOURCE = ['--experimental-transform-types', '--disable-warning=ExperimentalWarning'];

function commandFor(app: 'api' | 'worker'): string[] {
  return BUILT
    ? [path.join(REPO_ROOT, 'apps', app, 'dist', 'main.js')]
    : [...FROM_SOURCE, path.join(REPO_ROOT, 'apps', app, 'src', 'main.ts')];
}

/**
 * Runs an app as a child process and restarts it when it dies unexpectedly, with a growing
 * pause so a crash loop does not spin. A child that exits over its settings (a taken port, a bad
 * variable: it printed which) is not restarted, since that would fail the same way: `onSettings`
 * is called instead.
 */
export function supervise(
  name: string,
  app: 'api' | 'worker',
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  onSettings: () => void,
): Supervised {
  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let startedAt = 0;

  const start = () => {
    startedAt = Date.now();
    child = spawn(process.execPath, commandFor(app), {
      env,
      stdio: 'inherit',
      cwd: REPO_ROOT,
    });
    child.on('exit', (code, signal) => {
      if (stopping) return;
      if (code === SETTINGS_EXIT_CODE) {
        log(`${name} cannot run with these settings (its line above says which to change)`);
        onSettings();
        return;
      }
      // A child that ran for a minute before dying starts a fresh backoff.
      if (Date.now() - startedAt > 60_000) restarts = 0;
      const delay = Math.min(30_000, 500 * 2 ** restarts++);
      log(`${name} exited (${signal ?? code}); restarting in ${delay} ms`);
      setTimeout(() => {
        if (!stopping) start();
      }, delay).unref();
    });
  };
  start();

  return {
    name,
    stop(signal = 'SIGTERM') {
      stopping = true;
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const kill = setTimeout(() => c.kill('SIGKILL'), 20_000);
        c.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        c.kill(signal);
      });
    },
  };
}
