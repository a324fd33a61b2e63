/** How this process may install Debian packages. */
export type Privilege = 'root' | 'sudo' | 'none';

export type InstallPlan =
  | { action: 'nothing' }
  | { action: 'install'; missing: string[]; commands: string[][]; announcement: string }
  | { action: 'instruct'; missing: string[]; message: string };

const APT_ENV = ['env', 'DEBIAN_FRONTEND=noninteractive'];

/**
 * Decides what to do about missing packages: install them when this process may (root, or sudo
 * without a password), otherwise stop with the one command a person has to run. Pure, so the
 * decision is tested without touching the machine.
 */
export function planInstall(input: {
  missing: string[];
  privilege: Privilege;
  hasAptGet: boolean;
}): InstallPlan {
  const { missing, privilege, hasAptGet } = input;
  if (missing.length === 0) return { action: 'nothing' };
  const list = missing.join(' ');
  const command = `sudo apt-get install -y ${list}`;
  if (!hasAptGet) {
    return {
      action: 'instruct',
      missing,
      message:
        `missing system packages: ${list}, and there is no apt-get here to install them. ` +
        `Install them with this system's package manager (Debian/Ubuntu: ${command}), then run this again.`,
    };
  }
  if (privilege === 'none') {
    return {
      action: 'instruct',
      missing,
      message:
        `missing system packages: ${list}. This user may not install them (not root, and ` +
        `sudo needs a password or is absent). Run:\n\n    ${command}\n\nthen run this again.`,
    };
  }
  const prefix = privilege === 'sudo' ? ['sudo', '-n', ...APT_ENV] : APT_ENV;
  return {
    action: 'install',
    missing,
    commands: [
      [...prefix, 'apt-get', 'update', '-qq'],
      [...prefix, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing],
    ],
    announcement:
      `installing missing system packages: ${list} ` +
      `(${privilege === 'sudo' ? 'sudo ' : ''}apt-get install -y ${list})`,
  };
}
