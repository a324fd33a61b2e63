import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, chown, mkdir, mkdtemp, rm, rmdir } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { requireSystemTool } from '../system-tool.ts';
import { asUserCommand, lookupUser, type SystemUser } from '../system-user.ts';
import {
  FRAME,
  frame,
  frameReader,
  parseRequest,
  UNSHARE_FLAGS,
  type HelperExit,
  type HelperRequest,
} from './protocol.ts';

const run = promisify(execFile);

/** A program the worker may have started, and the users it may be started as. */
export interface AllowedProgram {
  /** Absolute path; the worker names the program, never the path. */
  path: string;
  users: readonly string[];
  /**
   * Chromium's: the launcher gives each start a fresh profile of the user's own in place of
   * Playwright's `--user-data-dir` (the worker's, which the user may not write), as its HOME.
   */
  profile?: boolean;
}

export interface LauncherOptions {
  /**
   * The directory the socket is made in (root's, 0711; the socket is the worker's alone); a
   * fresh one in the temporary folder when absent, so no one can have made it first.
   */
  dir?: string;
  /** The worker (a user name): the socket is handed to it, and to no one else. */
  worker: string;
  programs: Readonly<Record<string, AllowedProgram>>;
  /** Tests watch helpers start and end; the launcher itself needs neither. */
  onSpawn?: (pid: number, request: HelperRequest) => void;
  onExit?: (pid: number, exit: HelperExit) => void;
}

export interface HelperLauncher {
  /** The socket's path, for HELPER_LAUNCHER. */
  socket: string;
  /** Stops listening and kills every helper still running. */
  close(): Promise<void>;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * The launcher (docs/security.md#the-helper-launcher): root, and nothing but the switch. It
 * starts only the programs `programs` names, only as the users each names (never root), with
 * no capabilities and no_new_privs, in a process group of their own, and relays their stdio
 * and Playwright's fds 3 and 4 over the connection that asked. When that connection closes the
 * group is killed: the worker stops a stuck helper by closing (or killing its client), without
 * a capability to signal another user's processes.
 */
export async function startHelperLauncher(opts: LauncherOptions): Promise<HelperLauncher> {
  const worker = await lookupUser(opts.worker, 'the worker user');
  if (worker.uid === 0) throw new Error('the worker user is root');
  const users = new Map<string, SystemUser>();
  for (const program of Object.values(opts.programs))
    for (const name of program.users) {
      const user = await lookupUser(name, 'a helper user');
      if (user.uid === 0 || user.gid === 0) throw new Error(`helper user ${name} is root`);
      users.set(name, user);
    }
  const prlimit = requireSystemTool('prlimit', '(util-linux) to bound helpers');
  const unshare = requireSystemTool('unshare', '(util-linux) to isolate helpers');
  const rmTool = requireSystemTool('rm', 'to remove browser profiles');
  const envTool = requireSystemTool('env', 'to give helpers their environment');
  // Root's, that only root may change: root without DAC_OVERRIDE may not enter the worker's.
  const dir = opts.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'xt-launcher-')));
  await mkdir(dir, { recursive: true, mode: 0o711 });
  await chmod(dir, 0o711);
  const socket = path.join(dir, 'launcher.sock');
  await rm(socket, { force: true });
  // Root's, passable by all (0711): each profile inside is its user's alone.
  const profiles = await mkdtemp(path.join(os.tmpdir(), 'xt-profiles-'));
  await chmod(profiles, 0o711);
  const running = new Set<ChildProcess>();

  const refusal = (r: HelperRequest): string | undefined => {
    const program = Object.hasOwn(opts.programs, r.program) ? opts.programs[r.program] : undefined;
    if (!program) return `${r.program} is not a program this launcher starts`;
    if (!program.users.includes(r.user)) return `${r.program} is not started as ${r.user}`;
    const flag = r.unshare?.find((f) => !UNSHARE_FLAGS.has(f));
    if (flag !== undefined) return `unshare ${flag} is not allowed`;
    const name = Object.keys(r.env).find((key) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key));
    if (name !== undefined) return `${JSON.stringify(name)} is not a variable's name`;
    return undefined;
  };

  async function start(conn: net.Socket, r: HelperRequest): Promise<ChildProcess> {
    const program = opts.programs[r.program]!;
    const user = users.get(r.user)!;
    let profile: string | undefined;
    let args = r.args;
    const env = { ...r.env };
    if (program.profile) {
      profile = path.join(profiles, randomUUID());
      await mkdir(profile, { mode: 0o700 });
      await chown(profile, user.uid, user.gid);
      args = args.map((a) => (a.startsWith('--user-data-dir=') ? `--user-data-dir=${profile}` : a));
      env.HOME = profile;
    }
    // The environment is set by `env -i` after the switch, never given to setpriv: root's
    // setpriv would honour LD_PRELOAD and the like from it, a compromised worker's way to root.
    const argv = [
      ...asUserCommand(user),
      envTool,
      '-i',
      ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
      ...(r.limits
        ? [prlimit, `--as=${r.limits.addressSpace}`, `--fsize=${r.limits.fileSize}`, '--']
        : []),
      ...(r.unshare?.length ? [unshare, ...r.unshare, '--'] : []),
      program.path,
      ...args,
    ];
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: '/',
      env: {},
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', ...(r.pipes ? (['pipe', 'pipe'] as const) : [])],
    });
    running.add(child);
    const send = (kind: number, payload?: Buffer) => {
      if (!conn.destroyed) conn.write(frame(kind, payload));
    };
    const relay = (stream: Readable | null | undefined, kind: number) => {
      stream?.on('data', (chunk: Buffer) => send(kind, chunk));
      stream?.on('end', () => send(kind));
      stream?.on('error', () => undefined);
    };
    relay(child.stdout, FRAME.stdout);
    relay(child.stderr, FRAME.stderr);
    relay(child.stdio[4] as Readable | undefined, FRAME.pipeOut);
    conn.on('close', () => killGroup(child.pid));
    if (conn.destroyed) killGroup(child.pid);
    if (child.pid !== undefined) opts.onSpawn?.(child.pid, r);
    child.once('error', (err) => {
      send(FRAME.refused, Buffer.from(`${r.program} did not start: ${err.message}`));
      conn.end();
    });
    // Whatever it left in its group goes with it, so its pipes close and 'close' comes.
    child.once('exit', () => killGroup(child.pid));
    child.once('close', (code, signal) => {
      running.delete(child);
      const exit: HelperExit = { code, signal };
      send(FRAME.exit, Buffer.from(JSON.stringify(exit)));
      conn.end();
      if (child.pid !== undefined) opts.onExit?.(child.pid, exit);
      // The profile was the user's to fill: emptied as the user, so no link it planted is
      // followed by root; its directory, in root's, is then removed without recursion.
      // Nothing of the launcher's environment (the worker's secrets) goes with it.
      if (profile)
        void run(
          asUserCommand(user)[0]!,
          [...asUserCommand(user).slice(1), rmTool, '-rf', '--', profile],
          {
            env: {},
          },
        )
          .catch(() => undefined)
          .then(() => rmdir(profile).catch(() => undefined));
    });
    return child;
  }

  const server = net.createServer((conn) => {
    conn.on('error', () => undefined);
    let asked = false;
    /** fd 3 of the helper once started; null when it has none; undefined until then. */
    let pipeIn: Writable | null | undefined;
    const early: Buffer[] = [];
    const toHelper = (payload: Buffer) => {
      if (payload.length === 0) pipeIn?.end();
      else pipeIn?.write(payload);
    };
    const read = frameReader((kind, payload) => {
      if (asked) {
        if (kind !== FRAME.pipeIn) return;
        if (pipeIn === undefined) early.push(payload);
        else toHelper(payload);
        return;
      }
      asked = true;
      let request: HelperRequest;
      try {
        if (kind !== FRAME.request) throw new Error('the first frame is not a request');
        request = parseRequest(payload);
      } catch (err) {
        conn.end(frame(FRAME.refused, (err as Error).message));
        return;
      }
      const why = refusal(request);
      if (why !== undefined) {
        conn.end(frame(FRAME.refused, why));
        return;
      }
      start(conn, request).then(
        (child) => {
          pipeIn = (child.stdio[3] as Writable | null | undefined) ?? null;
          pipeIn?.on('error', () => undefined);
          for (const payload of early.splice(0)) toHelper(payload);
        },
        (err: unknown) => conn.end(frame(FRAME.refused, (err as Error).message)),
      );
    });
    conn.on('data', (chunk: Buffer) => {
      try {
        read(chunk);
      } catch {
        conn.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, resolve);
  });
  // Only the worker may connect (connecting takes write permission), not a helper user: a
  // compromised renderer must not have converters started. Mode first: root without FOWNER
  // may not change a file that is no longer its own.
  await chmod(socket, 0o600);
  await chown(socket, worker.uid, worker.gid);
  return {
    socket,
    async close() {
      // Helpers first: the server closes only once their connections have.
      for (const child of running) killGroup(child.pid);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rmdir(profiles).catch(() => undefined);
    },
  };
}

/**
 * The command line that starts `command` as the worker user, from root: its own groups (it is a
 * member of each converter user's, to share conversion folders), no capabilities (the uid change
 * drops them) and no_new_privs, so nothing it runs can gain any.
 */
export function workerCommand(worker: SystemUser, command: readonly string[]): string[] {
  const setpriv = requireSystemTool('setpriv', '(util-linux) to start the worker');
  return [
    setpriv,
    `--reuid=${worker.uid}`,
    `--regid=${worker.gid}`,
    '--init-groups',
    '--inh-caps=-all',
    '--no-new-privs',
    '--',
    ...command,
  ];
}
