import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rmdir, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { requireSystemTool } from '../../isolation/system-tool.ts';
import { launcherCommand } from '../../isolation/launcher/command.ts';
import { asUserCommand, type SystemUser } from '../../isolation/system-user.ts';

const run = promisify(execFile);

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

interface Tools {
  asUser: string[];
  chown: string;
  mkdir: string;
  rm: string;
  rmdir: string;
}

/**
 * The launcher Playwright starts instead of Chromium when the worker is root. Playwright makes
 * a profile directory of its own (`--user-data-dir`) and talks to Chromium over fds 3 and 4.
 * The script gives Chromium a fresh profile instead, made by root in a directory only root may
 * change and then handed to the user, makes it the user's HOME (root's is not theirs to write),
 * and execs Chromium as that user: the fds survive exec, the pid stays the one Playwright
 * watches and kills. Playwright's own directory stays root's and empty, so its recursive delete
 * after the browser exits walks nothing the user could have planted links in. The profile is
 * named after the pid, so the worker can tell which ones belong to browsers that have exited.
 * Every tool is named by absolute path: PATH is the environment's.
 */
function script(user: SystemUser, executable: string, profiles: string, tools: Tools): string {
  const asUser = tools.asUser.map(quote).join(' ');
  return `#!/bin/sh
# Written by the xt worker (@xt/sources, webpage/browser/run-as.ts): Chromium as ${user.name}.
set -eu
profile=${quote(profiles)}/$$
# Left by an earlier browser that had this pid: emptied as the user, then removed.
if [ -e "$profile" ]; then
  ${asUser} ${quote(tools.rm)} -rf -- "$profile" || :
  ${quote(tools.rmdir)} -- "$profile"
fi
${quote(tools.mkdir)} -m 700 -- "$profile"
${quote(tools.chown)} ${user.uid}:${user.gid} -- "$profile"
for arg do
  shift
  case $arg in
    --user-data-dir=*) arg=--user-data-dir=$profile ;;
  esac
  set -- "$@" "$arg"
done
HOME=$profile
export HOME
exec ${asUser} ${quote(executable)} "$@"
`;
}

export interface RunAsLauncher {
  /** What to give Playwright as `executablePath`. */
  path: string;
  /** Deletes the profiles of browsers that have exited. */
  sweep(): Promise<void>;
  /** Sweeps, then removes the launcher; browsers still running keep their profiles. */
  dispose(): Promise<void>;
}

/**
 * Writes the launcher into a fresh directory that root alone may change (others may only pass
 * through it, to reach their profile). Tools missing fail here, with a reason, rather than as a
 * browser that exits at once.
 */
export async function writeRunAsLauncher(
  user: SystemUser,
  executable: string,
): Promise<RunAsLauncher> {
  const neededFor = `to run Chromium as ${user.name}`;
  const tools: Tools = {
    asUser: asUserCommand(user),
    chown: requireSystemTool('chown', neededFor),
    mkdir: requireSystemTool('mkdir', neededFor),
    rm: requireSystemTool('rm', neededFor),
    rmdir: requireSystemTool('rmdir', neededFor),
  };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'xt-chromium-'));
  const profiles = path.join(dir, 'profiles');
  await mkdir(profiles);
  await chmod(dir, 0o711);
  await chmod(profiles, 0o711);
  const file = path.join(dir, 'chromium-as-user');
  await writeFile(file, script(user, executable, profiles, tools), { mode: 0o700 });

  /**
   * A profile is the user's to fill, so it is emptied as the user: `rm` then cannot reach
   * anything the user could not delete itself, whatever links it planted or swapped in while
   * the delete ran. Its directory, in root's, is then removed by root without recursion.
   */
  const sweep = async (): Promise<void> => {
    const names = await readdir(profiles).catch(() => []);
    for (const name of names) {
      if (existsSync(`/proc/${name}`)) continue;
      const profile = path.join(profiles, name);
      const [asUser = '', ...args] = tools.asUser;
      await run(asUser, [...args, tools.rm, '-rf', '--', profile]).catch(() => undefined);
      await rmdir(profile).catch(() => undefined);
    }
  };
  return {
    path: file,
    sweep,
    async dispose() {
      await sweep();
      // Nothing recursive: whatever is still there (a browser still running) stays.
      await unlink(file).catch(() => undefined);
      await rmdir(profiles).catch(() => undefined);
      await rmdir(dir).catch(() => undefined);
    },
  };
}

/**
 * What Playwright starts in place of Chromium when the helper launcher starts it
 * (docs/security.md#the-helper-launcher): the launcher's client, relaying fds 3 and 4, asking
 * for `chromium` as `user`. The launcher makes the profile; nothing here is root's to sweep.
 */
export async function writeLauncherClient(
  user: SystemUser,
  socket: string,
): Promise<RunAsLauncher> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'xt-chromium-'));
  const file = path.join(dir, 'chromium-by-launcher');
  const command = launcherCommand(socket, { program: 'chromium', user: user.name, pipes: true });
  await writeFile(file, `#!/bin/sh\nexec ${command.map(quote).join(' ')} "$@"\n`, { mode: 0o700 });
  return {
    path: file,
    sweep: () => Promise.resolve(),
    async dispose() {
      await unlink(file).catch(() => undefined);
      await rmdir(dir).catch(() => undefined);
    },
  };
}
