import { spawn } from 'node:child_process';
import { isPresent, onPath, packagesFor, type Purpose, type SystemPackage } from './catalogue.ts';
import { planInstall, type Privilege } from './plan.ts';

/** Missing packages this process could not (or may not) install; the message names the fix. */
export class SystemPackagesMissing extends Error {
  constructor(
    message: string,
    readonly missing: string[],
  ) {
    super(message);
    this.name = 'SystemPackagesMissing';
  }
}

function run(argv: string[], stdio: 'ignore' | 'inherit'): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined) return Promise.resolve(1);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', stdio, stdio] });
    child.once('error', () => resolve(127));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function privilege(): Promise<Privilege> {
  if (process.getuid?.() === 0) return 'root';
  // -n: never prompt; a sudo that wants a password answers non-zero at once.
  return (await run(['sudo', '-n', 'true'], 'ignore')) === 0 ? 'sudo' : 'none';
}

export interface EnsureOptions {
  purpose: Purpose;
  env: {
    PATH?: string | undefined;
    REDIS_URL?: string | undefined;
    CHROMIUM_PATH?: string | undefined;
  };
  log: (line: string) => void;
  /** Replaces the catalogue (tests). */
  packages?: SystemPackage[];
}

/**
 * Makes sure the Debian packages a purpose needs are installed: says what it installs and
 * installs it when root or password-less sudo allows, else throws SystemPackagesMissing with the
 * exact command to run. Resolves with the names it installed.
 */
export async function ensureSystemPackages(options: EnsureOptions): Promise<string[]> {
  const wanted = options.packages ?? packagesFor(options.purpose, options.env);
  const missingOf = () =>
    wanted.filter((pkg) => !isPresent(pkg, options.env.PATH)).map((pkg) => pkg.name);
  const missing = missingOf();
  if (missing.length === 0) return [];
  const plan = planInstall({
    missing,
    privilege: await privilege(),
    hasAptGet: onPath('apt-get', options.env.PATH),
  });
  if (plan.action === 'nothing') return [];
  if (plan.action === 'instruct') throw new SystemPackagesMissing(plan.message, plan.missing);
  options.log(plan.announcement);
  for (const command of plan.commands) {
    const code = await run(command, 'inherit');
    if (code !== 0) {
      throw new SystemPackagesMissing(
        `"${command.join(' ')}" failed (exit status ${code}); install ${missing.join(' ')} by hand and run this again.`,
        missing,
      );
    }
  }
  const still = missingOf();
  if (still.length > 0) {
    throw new SystemPackagesMissing(
      `installed ${missing.join(' ')}, but still not found: ${still.join(' ')} ` +
        `(looked for ${wanted
          .filter((pkg) => still.includes(pkg.name))
          .map((pkg) => pkg.probe)
          .join(', ')}).`,
      still,
    );
  }
  options.log(`installed: ${missing.join(' ')}`);
  return missing;
}
