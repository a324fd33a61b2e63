import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT, TS_NODE_ARGS } from './processes.ts';

const run = promisify(execFile);

/**
 * The capabilities a worker started as root needs to start Chromium and LibreOffice as users of
 * their own itself (`npm start` as root, a container run so without the helper launcher).
 */
export const CONTAINER_WORKER_CAPABILITIES = [
  'chown',
  'dac_override',
  'fowner',
  'kill',
  'setgid',
  'setuid',
] as const;

/**
 * The capabilities docker-compose.yml leaves a worker container (`cap_drop: [ALL]`, then these
 * in `cap_add`): root there is the helper launcher's alone, which switches users, hands
 * Chromium its profile and the worker its socket's folder, and kills helpers. Keep the two
 * lists the same.
 */
export const CONTAINER_LAUNCHER_CAPABILITIES = ['chown', 'kill', 'setgid', 'setuid'] as const;

/**
 * Root holding only `capabilities` and no way to gain more, as a container's root: setpriv
 * empties the bounding set but for them (so the exec keeps no other) and sets no_new_privs,
 * as compose's `no-new-privileges` does.
 */
export const asContainerRoot = (capabilities: readonly string[]): string[] => [
  '/usr/bin/setpriv',
  `--bounding-set=-all,${capabilities.map((c) => `+${c}`).join(',')}`,
  '--no-new-privs',
  '--',
];

/** An unprivileged user (uid and gid by number), as a worker started by someone not root. */
export const asUnprivileged = (uid: number, gid: number): string[] => [
  '/usr/bin/setpriv',
  `--reuid=${uid}`,
  `--regid=${gid}`,
  '--clear-groups',
  '--inh-caps=-all',
  '--',
];

/**
 * Runs `code` (an ES module; TypeScript modules it imports load as TS_NODE_ARGS says) in a child Node
 * process started through `wrapper` (one of the above; both need this process to be root), and
 * answers what it printed on its last line.
 */
export async function runModuleAs(
  wrapper: readonly string[],
  code: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const [command = '', ...args] = wrapper;
  const { stdout } = await run(
    command,
    [...args, process.execPath, ...TS_NODE_ARGS, '--input-type=module', '--eval', code],
    // HOME is root's: one the child may write to, whoever it runs as.
    { cwd: REPO_ROOT, env: { ...env, HOME: '/tmp' }, timeout: 240_000, maxBuffer: 16 << 20 },
  );
  return stdout.trim().split('\n').pop() ?? '';
}

/**
 * Users of this machine the helper launcher's tests run as: a worker (a member of each
 * converter's group, as the image's `node` is), a browser user and two converter users.
 */
export const LAUNCHER_TEST_USERS = {
  worker: 'xt-lt-worker',
  browser: 'xt-lt-browser',
  converters: ['xt-lt-conv-0', 'xt-lt-conv-1'],
} as const;

/** Makes LAUNCHER_TEST_USERS where missing (system users, no home); needs root. */
export function ensureLauncherTestUsers(): void {
  const { worker, browser, converters } = LAUNCHER_TEST_USERS;
  for (const name of [worker, browser, ...converters]) {
    try {
      execFileSync('/usr/bin/id', [name], { stdio: 'ignore' });
    } catch {
      execFileSync('/usr/sbin/useradd', [
        '--system',
        '--user-group',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        name,
      ]);
    }
  }
  execFileSync('/usr/sbin/usermod', ['--append', '--groups', converters.join(','), worker]);
}
