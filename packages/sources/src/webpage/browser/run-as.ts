import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** An account of this machine Chromium can run as. */
export interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

/** The user this process runs as. */
export function currentUser(): SystemUser {
  const info = os.userInfo();
  return { name: info.username, uid: info.uid, gid: info.gid };
}

/** `name` (or a numeric uid) from the system's user database (`getent`, so NSS users count). */
export async function lookupUser(name: string): Promise<SystemUser> {
  const { stdout } = await run('getent', ['passwd', name]).catch(() => ({ stdout: '' }));
  const [found, , uid, gid] = stdout.split('\n')[0]?.split(':') ?? [];
  if (!found || !uid || !gid)
    throw new Error(`BROWSER_USER "${name}" is not a user of this machine (getent passwd)`);
  return { name: found, uid: Number(uid), gid: Number(gid) };
}

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The launcher Playwright starts instead of Chromium when the worker is root. Playwright makes
 * the profile directory (`--user-data-dir`, mode 0700) as root and talks to Chromium over fds 3
 * and 4, so the script hands the profile to the user, makes it the user's HOME (root's is not
 * theirs to write), and execs Chromium as that user: the fds survive exec, the pid stays the one
 * Playwright watches and kills. setpriv drops every capability and group and sets no_new_privs
 * (Chromium's namespace sandbox needs none of them).
 */
function script(user: SystemUser, executable: string): string {
  const ids = `${user.uid}:${user.gid}`;
  return `#!/bin/sh
# Written by the xt worker (@xt/sources, webpage/browser/run-as.ts): Chromium as ${user.name}.
set -eu
for arg do
  case $arg in
    --user-data-dir=*)
      profile=\${arg#--user-data-dir=}
      chown -R ${ids} -- "$profile"
      HOME=$profile
      export HOME
      ;;
  esac
done
exec setpriv --reuid=${user.uid} --regid=${user.gid} --clear-groups --inh-caps=-all --no-new-privs -- ${quote(executable)} "$@"
`;
}

export interface RunAsLauncher {
  /** What to give Playwright as `executablePath`. */
  path: string;
  dispose(): Promise<void>;
}

/** Writes the launcher into a fresh root-only directory; `dispose` removes it. */
export async function writeRunAsLauncher(
  user: SystemUser,
  executable: string,
): Promise<RunAsLauncher> {
  // Fails here, with a reason, rather than as a browser that exits at once.
  await run('setpriv', ['--version']).catch(() => {
    throw new Error(`setpriv (util-linux) is needed to run Chromium as ${user.name}`);
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'xt-chromium-'));
  const file = path.join(dir, 'chromium-as-user');
  await writeFile(file, script(user, executable), { mode: 0o700 });
  return { path: file, dispose: () => rm(dir, { recursive: true, force: true }) };
}
