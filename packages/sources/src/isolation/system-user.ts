import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { requireSystemTool } from './system-tool.ts';

const run = promisify(execFile);

/** An account of this machine a helper program (Chromium) can run as. */
export interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

/** A user as start-up lines and messages name one: `nobody (uid 65534)`. */
export const describeUser = (user: SystemUser): string => `${user.name} (uid ${user.uid})`;

/** The user this process runs as. */
export function currentUser(): SystemUser {
  const info = os.userInfo();
  return { name: info.username, uid: info.uid, gid: info.gid };
}

/**
 * `name` (or a numeric uid) from the system's user database (`getent`, so NSS users count);
 * `setting` names where it came from in the error when there is no such user.
 */
export async function lookupUser(name: string, setting: string): Promise<SystemUser> {
  const getent = requireSystemTool('getent', 'to look users up');
  const { stdout } = await run(getent, ['passwd', name]).catch(() => ({ stdout: '' }));
  const [found, , uid, gid] = stdout.split('\n')[0]?.split(':') ?? [];
  if (!found || !uid || !gid)
    throw new Error(`${setting} "${name}" is not a user of this machine (getent passwd)`);
  return { name: found, uid: Number(uid), gid: Number(gid) };
}

/** Who a helper program (Chromium, LibreOffice) runs as, and why not as configured. */
export interface HelperUser {
  user: SystemUser;
  /**
   * Set when a user was configured but this process cannot switch to it (it is not root): the
   * helper runs as the worker's own user, which may read the worker's environment.
   */
  notApplied?: string;
}

/**
 * The user `program` runs as: `configured` (the setting's value, `nobody` when unset) when this
 * process is root and can switch to it; otherwise this process's own user. A user configured
 * for a process that is not root cannot be applied, and the answer says so, so a deployment
 * that meant to separate the two hears that it did not (an image's worker started as `node`).
 */
export async function helperUser(
  configured: string | undefined,
  setting: string,
  program: string,
  self: SystemUser = currentUser(),
): Promise<HelperUser> {
  if (self.uid === 0) return { user: await lookupUser(configured ?? 'nobody', setting) };
  if (configured === undefined || configured === self.name || configured === String(self.uid))
    return { user: self };
  return {
    user: self,
    notApplied:
      `${setting}=${configured} is not applied: the worker runs as ${describeUser(self)}, ` +
      `not root, so ${program} runs as the worker's own user and could read its environment`,
  };
}

/**
 * The command line that runs what follows it as `user`, from root: util-linux's setpriv with
 * the user's uid and gid, no supplementary groups, no capabilities to inherit and
 * `no_new_privs`, so nothing it runs can gain privileges again.
 */
export function asUserCommand(user: SystemUser): string[] {
  const setpriv = requireSystemTool('setpriv', `(util-linux) to run programs as ${user.name}`);
  return [
    setpriv,
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--no-new-privs',
    '--',
  ];
}
