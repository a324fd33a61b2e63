import { execFile } from 'node:child_process';
import { chmod, chown, readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { launcherCommand } from '../../isolation/launcher/command.ts';
import type { HelperRequest } from '../../isolation/launcher/protocol.ts';
import { lookupUser, type SystemUser } from '../../isolation/system-user.ts';
import {
  firstLine,
  isolationOf,
  OWN_PROC,
  refuseUnisolated,
  USER_SPACES,
  type Sandbox,
  type SandboxOptions,
} from './sandbox.ts';

const run = promisify(execFile);

/**
 * Conversions started by the helper launcher (docs/security.md#the-helper-launcher), for a
 * worker that is not root: LibreOffice runs as a converter user the launcher allows (one per
 * conversion at once, from CONVERTER_USER's list), bounded by prlimit and in namespaces its
 * user makes, as the launcher starts it. The worker shares each conversion's folder with that
 * user's group (it is a member), so nothing needs root to hand it over or read it back.
 */
export async function createLauncherSandbox(
  opts: SandboxOptions & { launcher: string },
): Promise<Sandbox> {
  const names = (opts.user ?? 'nobody').split(',').map((name) => name.trim());
  const [first, ...others] = await Promise.all(
    names.map((name) => lookupUser(name, 'CONVERTER_USER')),
  );
  if (!first) throw new Error('CONVERTER_USER names no user');
  const ask = (user: SystemUser, program: string, rest: Partial<HelperRequest> = {}) =>
    launcherCommand(opts.launcher, { ...rest, program, user: user.name });
  let spaces: { flags: string[]; sharedProc?: string } | { reason: string } = {
    reason: 'network isolation turned off for this converter',
  };
  if (opts.network !== 'shared') {
    let sharedProc: string | undefined;
    for (const flags of [...USER_SPACES.map((s) => [...s, ...OWN_PROC]), ...USER_SPACES]) {
      const [command = '', ...args] = ask(first, 'true', { unshare: flags });
      try {
        await run(command, args, { timeout: 10_000 });
        spaces = {
          flags,
          ...(flags.includes('--mount-proc') ? {} : { sharedProc: sharedProc ?? '' }),
        };
        break;
      } catch (err) {
        spaces = { reason: firstLine(err) };
        if (flags.includes('--mount-proc')) sharedProc ??= firstLine(err);
      }
    }
  }
  refuseUnisolated(spaces, opts.requireIsolation);
  const unshare = 'flags' in spaces ? spaces.flags : [];
  const limits = { addressSpace: opts.memoryMb * 1024 * 1024, fileSize: opts.maxFileBytes };
  const users = [first, ...others] as const;
  return {
    users,
    isolation: isolationOf(users, spaces, opts.memoryMb, 'by the helper launcher'),
    // The launcher starts its own soffice (CONVERTER_PATH is its allow-list's, not the worker's).
    wrap: (command, user) => [...ask(user, 'soffice', { limits, unshare }), ...command.slice(1)],
    handOver: (dir, user) => shareWithGroup(dir, user.gid),
    async remove(dir, user) {
      const [command = '', ...args] = ask(user, 'rm', { args: ['-rf', '--', dir] });
      await run(command, args).catch(() => undefined);
      await rmdir(dir).catch(() => undefined);
    },
  };
}

/**
 * The folder and what is in it, the group's to read and fill (setgid folders: what the converter
 * makes stays in the group), no one else's: another conversion runs as another user.
 */
async function shareWithGroup(dir: string, gid: number): Promise<void> {
  const walk = async (at: string): Promise<void> => {
    await chown(at, -1, gid);
    await chmod(at, 0o2770);
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const child = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(child);
      else {
        await chown(child, -1, gid);
        await chmod(child, 0o660);
      }
    }
  };
  await walk(dir);
}
