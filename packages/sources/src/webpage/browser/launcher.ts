import { stripVTControlCharacters } from 'node:util';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { browserEnvironment } from './environment.ts';
import {
  currentUser,
  describeUser,
  helperUser,
  lookupUser,
  type SystemUser,
} from '../../isolation/system-user.ts';
import { writeLauncherClient, writeRunAsLauncher, type RunAsLauncher } from './run-as.ts';

interface ChromiumLauncherOptions {
  /** Chromium binary; when absent Playwright's own download. */
  executablePath?: string;
  /** The process's environment; Chromium gets only its harmless part (environment.ts). */
  environment: Readonly<Record<string, string | undefined>>;
  /** Who Chromium runs as when the worker is root or has a launcher (BROWSER_USER); default `nobody`. */
  user?: string | undefined;
  /** The helper launcher's socket (HELPER_LAUNCHER): Chromium is started by it. */
  launcher?: string | undefined;
}

/** What separates the pages Chromium renders from the worker (docs/security.md#browser-isolation). */
export interface BrowserIsolation {
  /** Always: Chromium's environment is the allow-list, none of the service's settings. */
  environment: 'allow-listed';
  /** e.g. `nobody (uid 65534)`. */
  user: string;
  /** `on`, or `off: <why>`; `unknown` until the first launch found out. */
  sandbox: string;
  /** Why BROWSER_USER was not applied (the worker is not root), when it was set. */
  userNotApplied?: string;
}

type Sandbox = { state: 'unknown' } | { state: 'on' } | { state: 'off'; reason: string };

/** What Playwright is handed per launch beyond the isolation this module decides. */
type LaunchSettings = Omit<LaunchOptions, 'executablePath' | 'env' | 'chromiumSandbox'>;

/** What Chromium writes when its sandbox cannot start (the lines Playwright also looks for). */
const SANDBOX_FAILED = /No usable sandbox|crbug\.com\/(?:357670|638180)/;

/**
 * Why a launch failed for want of a sandbox (no user namespaces, a seccomp or AppArmor policy
 * that forbids them), from Chromium's own error line; undefined when it failed for another reason.
 */
function sandboxFailure(err: unknown): string | undefined {
  const message = err instanceof Error ? err.message : String(err);
  for (const raw of message.split('\n')) {
    const line = stripVTControlCharacters(raw);
    const stderr = line.indexOf('[err]');
    if (stderr < 0 || !SANDBOX_FAILED.test(line)) continue;
    // Without Chromium's `[pid:tid:time:FATAL:file.cc:12]` prefix.
    const reason = line
      .slice(stderr + '[err]'.length)
      .replace(/^\s*\[[^\]]*\]/, '')
      .trim();
    return reason.length > 240 ? `${reason.slice(0, 240)}…` : reason;
  }
  return undefined;
}

/**
 * Launches Chromium isolated from the worker: an allow-listed environment, as an unprivileged
 * user (BROWSER_USER when the worker is root, else the worker's own user), with Chromium's
 * sandbox on. Only when the sandbox cannot start does it fall back to `--no-sandbox`, once, and
 * remembers why: the kernel will not change while the worker runs.
 */
export class ChromiumLauncher {
  readonly #executablePath: string | undefined;
  readonly #env: Record<string, string>;
  readonly #user: SystemUser;
  readonly #runAs: RunAsLauncher | undefined;
  readonly #userNotApplied: string | undefined;
  readonly #byLauncher: boolean;
  #sandbox: Sandbox;

  private constructor(
    opts: ChromiumLauncherOptions,
    user: SystemUser,
    runAs: RunAsLauncher | undefined,
    userNotApplied?: string,
  ) {
    this.#executablePath = runAs?.path ?? opts.executablePath;
    this.#byLauncher = opts.launcher !== undefined;
    this.#env = browserEnvironment(opts.environment);
    this.#user = user;
    this.#runAs = runAs;
    this.#userNotApplied = userNotApplied;
    this.#sandbox =
      user.uid === 0
        ? { state: 'off', reason: 'Chromium runs as root (BROWSER_USER), where it has no sandbox' }
        : { state: 'unknown' };
  }

  static async create(opts: ChromiumLauncherOptions): Promise<ChromiumLauncher> {
    if (opts.launcher !== undefined) {
      const user = await lookupUser(opts.user ?? 'nobody', 'BROWSER_USER');
      return new ChromiumLauncher(opts, user, await writeLauncherClient(user, opts.launcher));
    }
    const self = currentUser();
    const { user, notApplied } = await helperUser(opts.user, 'BROWSER_USER', 'Chromium', self);
    // Only root switches users; Chromium as the worker itself, or as root, needs no launcher.
    if (self.uid !== 0 || user.uid === 0)
      return new ChromiumLauncher(opts, user, undefined, notApplied);
    const runAs = await writeRunAsLauncher(user, opts.executablePath ?? chromium.executablePath());
    return new ChromiumLauncher(opts, user, runAs);
  }

  get isolation(): BrowserIsolation {
    const s = this.#sandbox;
    return {
      environment: 'allow-listed',
      // Said as the converter's check says it, so the two start-up lines read alike.
      user: `${describeUser(this.#user)}${this.#byLauncher ? ', by the helper launcher' : ''}`,
      sandbox: s.state === 'off' ? `off: ${s.reason}` : s.state,
      ...(this.#userNotApplied === undefined ? {} : { userNotApplied: this.#userNotApplied }),
    };
  }

  async launch(settings: LaunchSettings): Promise<Browser> {
    const runAs = this.#runAs;
    const launch = async (chromiumSandbox: boolean) => {
      await runAs?.sweep();
      const browser = await chromium.launch({
        ...settings,
        ...(this.#executablePath === undefined ? {} : { executablePath: this.#executablePath }),
        env: this.#env,
        chromiumSandbox,
      });
      // Its profile goes once it has exited (this sweep, or the next one's, or dispose's).
      if (runAs) browser.on('disconnected', () => void runAs.sweep());
      return browser;
    };
    if (this.#sandbox.state === 'off') return launch(false);
    if (this.#sandbox.state === 'on') return launch(true);
    try {
      const browser = await launch(true);
      this.#sandbox = { state: 'on' };
      return browser;
    } catch (err) {
      const reason = sandboxFailure(err);
      if (reason === undefined) throw err;
      const browser = await launch(false);
      // Set only once the plain launch worked: the failure was the sandbox, not the browser.
      this.#sandbox = { state: 'off', reason };
      return browser;
    }
  }

  /** Removes the run-as launcher and the profiles of exited browsers; running ones go on. */
  async dispose(): Promise<void> {
    await this.#runAs?.dispose();
  }
}
