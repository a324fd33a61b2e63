import { execFile } from 'node:child_process';
import { chown, readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { requireSystemTool, systemTool } from '../../isolation/system-tool.ts';
import {
  asUserCommand,
  currentUser,
  describeUser,
  helperUser,
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
  /**
   * `own /proc (its processes only)`, or `the host's /proc: <why>` where no mount namespace
   * could be made: every conversion runs as the same user, and another's /proc entries would
   * show its files in flight.
   */
  processes: string;
  /** e.g. `2048 MiB address space`. */
  memory: string;
  /** Why CONVERTER_USER was not applied (the worker is not root), when it was set. */
  userNotApplied?: string;
}

/** Runs a command isolated: the wrapper's argv around the command's own. */
export interface Sandbox {
  /**
   * Who conversions run as, one user per conversion at once where there are enough (a list in
   * CONVERTER_USER): one conversion cannot then read another's files. The files a conversion
   * reads and writes must be its user's.
   */
  users: readonly [SystemUser, ...SystemUser[]];
  isolation: ConverterIsolation;
  wrap(command: readonly string[], user: SystemUser): string[];
  /** Makes a conversion's directory, and what is in it, `user`'s to read and fill. */
  handOver(dir: string, user: SystemUser): Promise<void>;
  /** Removes a conversion's directory, handed to `user`, without root following its links. */
  remove(dir: string, user: SystemUser): Promise<void>;
}

export interface SandboxOptions {
  /**
   * Who the converter runs as when the worker is root (CONVERTER_USER, a comma-separated list
   * for a user per conversion); default `nobody`.
   */
  user?: string | undefined;
  /** Address space the converter may map (CONVERT_MAX_MEMORY_MB). */
  memoryMb: number;
  /** The largest file the converter may write (prlimit's file size bound). */
  maxFileBytes: number;
  /** Off only in tests that show what the profile's own settings hold back. */
  network?: 'isolated' | 'shared';
  /**
   * Refuse (reject) rather than share the worker's network when no namespace can be made
   * (CONVERT_REQUIRE_ISOLATION): the profile's own settings are then the only wall between a
   * document and the worker's network, and a converter exploit would have none.
   */
  requireIsolation?: boolean;
}

/**
 * What either sandbox's namespace probe found: namespaces made (without a /proc of their own,
 * and why, when `sharedProc` is set), or why none could be.
 */
export type ProbedSpaces = { sharedProc?: string | undefined } | { reason: string };

/** Refuses to convert in the worker's network where CONVERT_REQUIRE_ISOLATION says so. */
export function refuseUnisolated(spaces: ProbedSpaces, required: boolean | undefined): void {
  if (required && 'reason' in spaces)
    throw new Error(
      `LibreOffice would share the worker's network (${spaces.reason}), and CONVERT_REQUIRE_ISOLATION refuses that; allow unshare (a seccomp profile that permits it, or CAP_SYS_ADMIN) or set CONVERT_REQUIRE_ISOLATION=false`,
    );
}

/** The isolation a sandbox reports at start-up; `via` says who starts the converter, if not the worker. */
export function isolationOf(
  users: readonly SystemUser[],
  spaces: ProbedSpaces,
  memoryMb: number,
  via?: string,
): ConverterIsolation {
  return {
    environment: 'allow-listed',
    user: `${users.map(describeUser).join(', ')}${via ? `, ${via}` : ''}`,
    network: 'reason' in spaces ? `shared: ${spaces.reason}` : 'none (own network namespace)',
    processes:
      'reason' in spaces
        ? `the host's /proc: ${spaces.reason}`
        : spaces.sharedProc === undefined
          ? 'own /proc (its processes only)'
          : `the host's /proc: ${spaces.sharedProc}`,
    memory: `${memoryMb} MiB address space`,
  };
}

export const firstLine = (err: unknown) =>
  String((err as { stderr?: string }).stderr || (err as Error).message)
    .trim()
    .split('\n')[0] ?? 'unknown error';

/**
 * Namespaces that `unshare` made: its arguments, whether they go after the user switch, and why
 * the conversion has no /proc of its own when it has not.
 */
type Namespaces =
  { args: string[]; asTheUser: boolean; sharedProc?: string | undefined } | { reason: string };

const SPACES = ['--net', '--pid', '--fork', '--kill-child'];
/**
 * A mount namespace with a /proc of the PID namespace's own: the converter sees only its own
 * processes. Tried first; a seccomp profile that refuses `mount` (Docker's, without
 * CAP_SYS_ADMIN) leaves the other namespaces still worth having.
 */
export const OWN_PROC = ['--mount', '--mount-proc'];
/** Without privileges: a user namespace first, mapped to the caller, in which to make the rest. */
export const USER_SPACES = [
  ['--user', '--map-current-user', ...SPACES],
  ['--user', '--map-root-user', ...SPACES],
];

/**
 * The namespaces the converter starts in, tried once per worker: its own network namespace
 * (only a down loopback in it, so nothing a document names can be reached), and its own PID
 * namespace whose first process dies with `unshare` (`--kill-child`), taking every process the
 * converter started with it, even one that left the process group. Root makes them directly;
 * where it may not (a container without CAP_SYS_ADMIN) the converter's user makes them in a
 * user namespace of its own, after the switch to it, as a worker that is not root does. Where
 * the kernel allows neither (no user namespaces for unprivileged users, Docker's default seccomp
 * profile), the converter shares the worker's network and the start-up line says so.
 */
async function namespaces(root: boolean, asUser: string[]): Promise<Namespaces> {
  const unshare = systemTool('unshare');
  if (!unshare) return { reason: 'unshare (util-linux) is not installed' };
  const ways = [
    ...(root ? [{ args: SPACES, asTheUser: false }] : []),
    ...(!root || asUser.length > 0 ? USER_SPACES.map((args) => ({ args, asTheUser: root })) : []),
  ];
  const tries = [...ways.map((way) => ({ ...way, args: [...way.args, ...OWN_PROC] })), ...ways];
  const probe = requireSystemTool('true', 'to try namespaces');
  let reason = 'unknown error';
  let sharedProc: string | undefined;
  for (const { args, asTheUser } of tries) {
    const command = [...(asTheUser ? asUser : []), unshare, ...args, '--', probe];
    try {
      await run(command[0] ?? unshare, command.slice(1), { timeout: 10_000 });
      const ownProc = args.includes('--mount-proc');
      return {
        args: [unshare, ...args, '--'],
        asTheUser,
        sharedProc: ownProc ? undefined : sharedProc,
      };
    } catch (err) {
      reason = firstLine(err);
      if (args.includes('--mount-proc')) sharedProc ??= reason;
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
  const names = opts.user?.split(',').map((name) => name.trim()) ?? [];
  const { user, notApplied } = await helperUser(
    root ? names[0] : opts.user,
    'CONVERTER_USER',
    'LibreOffice',
    self,
  );
  const others = root
    ? await Promise.all(names.slice(1).map((name) => lookupUser(name, 'CONVERTER_USER')))
    : [];
  const users = [user, ...others] as const;
  const asUserOf = (u: SystemUser) => (root && u.uid !== 0 ? asUserCommand(u) : []);
  const asUser = asUserOf(user);
  const spaces =
    opts.network === 'shared'
      ? { reason: 'network isolation turned off for this converter' }
      : await namespaces(root, asUser);
  refuseUnisolated(spaces, opts.requireIsolation);
  const outside = 'args' in spaces && !spaces.asTheUser ? spaces.args : [];
  const inside = 'args' in spaces && spaces.asTheUser ? spaces.args : [];
  const bytes = opts.memoryMb * 1024 * 1024;
  const prefix = (u: SystemUser) => [
    ...outside,
    prlimit,
    `--as=${bytes}`,
    `--fsize=${opts.maxFileBytes}`,
    '--',
    ...asUserOf(u),
    ...inside,
  ];
  return {
    users,
    isolation: {
      ...isolationOf(users, spaces, opts.memoryMb),
      ...(notApplied === undefined ? {} : { userNotApplied: notApplied }),
    },
    wrap: (command, u) => [...prefix(u), ...command],
    handOver: (dir, u) => handOver(dir, u),
    remove: (dir, u) =>
      asUserOf(u).length > 0
        ? removeAs(asUserOf(u))(dir)
        : rm(dir, { recursive: true, force: true }),
  };
}

/**
 * The directory is the converter user's to fill, so it is emptied and removed as that user:
 * `rm` then reaches nothing the user could not delete itself, whatever links a converter that
 * misbehaved planted or swapped in. Root only removes, without recursion, an empty directory
 * the user could not (rmdir refuses a link).
 */
function removeAs(asUser: readonly string[]): (dir: string) => Promise<void> {
  const rmTool = requireSystemTool('rm', 'to remove conversions');
  return async (dir) => {
    const [command = '', ...args] = asUser;
    await run(command, [...args, rmTool, '-rf', '--', dir]).catch(() => undefined);
    await rmdir(dir).catch(() => undefined);
  };
}

/** The conversion's directory and what is in it, made the converter's (it runs as another user). */
async function handOver(dir: string, user: SystemUser): Promise<void> {
  if (user.uid === process.getuid?.()) return;
  const walk = async (at: string): Promise<void> => {
    await chown(at, user.uid, user.gid);
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      const child = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(child);
      else await chown(child, user.uid, user.gid);
    }
  };
  await walk(dir);
}
