import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { requireSystemTool, systemTool } from '../../isolation/system-tool.ts';
import {
  asUserCommand,
  currentUser,
  lookupUser,
  type SystemUser,
} from '../../isolation/system-user.ts';

const run = promisify(execFile);

/** How the converter is kept from the worker (docs/security.md#document-converter-isolation). */
export interface ConverterIsolation {
  /** Always: the converter's environment is an allow-list, none of the service's settings. */
  environment: 'allow-listed';
  /** e.g. `nobody (uid 65534)`. */
  user: string;
  /** `none (own network namespace)`, or `shared: <why>` where no namespace could be made. */
  network: string;
  /** e.g. `2048 MiB address space`. */
  memory: string;
}

/** Runs a command isolated: the wrapper's argv around the command's own. */
export interface Sandbox {
  /** The user the command runs as; the files it reads and writes must be theirs. */
  user: SystemUser;
  isolation: ConverterIsolation;
  wrap(command: readonly string[]): string[];
}

export interface SandboxOptions {
  /** Who the converter runs as when the worker is root (CONVERTER_USER); default `nobody`. */
  user?: string | undefined;
  /** Address space the converter may map (CONVERT_MAX_MEMORY_MB). */
  memoryMb: number;
  /** The largest file the converter may write (prlimit's file size bound). */
  maxFileBytes: number;
  /** Off only in tests that show what the profile's own settings hold back. */
  network?: 'isolated' | 'shared';
}

const firstLine = (err: unknown) =>
  String((err as { stderr?: string }).stderr || (err as Error).message)
    .trim()
    .split('\n')[0] ?? 'unknown error';

/**
 * The namespaces the converter starts in, tried once per worker: its own network namespace
 * (only a down loopback in it, so nothing a document names can be reached), and its own PID
 * namespace whose first process dies with `unshare` (`--kill-child`), taking every process the
 * converter started with it, even one that left the process group. A worker that is not root
 * makes a user namespace for them (mapped to its own user). Where the kernel allows neither
 * (no user namespaces for unprivileged users), the converter shares the worker's network and
 * the start-up line says so.
 */
async function namespaces(root: boolean): Promise<{ args: string[] } | { reason: string }> {
  const unshare = systemTool('unshare');
  if (!unshare) return { reason: 'unshare (util-linux) is not installed' };
  const tries = root
    ? [['--net', '--pid', '--fork', '--kill-child']]
    : [
        ['--user', '--map-current-user', '--net', '--pid', '--fork', '--kill-child'],
        ['--user', '--map-root-user', '--net', '--pid', '--fork', '--kill-child'],
      ];
  let reason = 'unknown error';
  for (const args of tries) {
    try {
      await run(unshare, [...args, '--', requireSystemTool('true', 'to try namespaces')], {
        timeout: 10_000,
      });
      return { args: [unshare, ...args, '--'] };
    } catch (err) {
      reason = firstLine(err);
    }
  }
  return { reason };
}

/**
 * Decides once how conversions are isolated: an unprivileged user (CONVERTER_USER when the
 * worker is root, else the worker's own user), no capabilities and no new privileges, a bound on
 * its address space (prlimit), and its own network and PID namespaces where the kernel allows.
 */
export async function createSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const self = currentUser();
  const root = self.uid === 0;
  // Tools run as root are found in the system's directories only, never through PATH.
  const prlimit = requireSystemTool('prlimit', '(util-linux) to bound the converter’s memory');
  const user = root ? await lookupUser(opts.user ?? 'nobody', 'CONVERTER_USER') : self;
  const asUser = root && user.uid !== 0 ? asUserCommand(user) : [];
  const spaces =
    opts.network === 'shared'
      ? { reason: 'network isolation turned off for this converter' }
      : await namespaces(root);
  const bytes = opts.memoryMb * 1024 * 1024;
  const prefix = [
    ...('args' in spaces ? spaces.args : []),
    prlimit,
    `--as=${bytes}`,
    `--fsize=${opts.maxFileBytes}`,
    '--',
    ...asUser,
  ];
  return {
    user,
    isolation: {
      environment: 'allow-listed',
      user: `${user.name} (uid ${user.uid})`,
      network: 'args' in spaces ? 'none (own network namespace)' : `shared: ${spaces.reason}`,
      memory: `${opts.memoryMb} MiB address space`,
    },
    wrap: (command) => [...prefix, ...command],
  };
}
