import { CHROMIUM_BASE_ARGS, errorSummary } from '@xt/runtime';
import {
  ChromiumLauncher,
  createDocumentConverter,
  DEFAULT_SOFFICE,
  type BrowserIsolation,
  type ConverterIsolation,
} from '@xt/sources';

/** One thing a worker needs, checked at start-up. */
export interface StartupCheck {
  name: string;
  ok: boolean;
  /** What was found, or what is missing and how to fix it. */
  message: string;
}

/** The Chromium check also says how the browser is isolated, for the start-up line. */
export interface ChromiumCheck extends StartupCheck {
  isolation?: BrowserIsolation;
}

/**
 * Starts Chromium once, isolated as the renderer starts it, and closes it, so a worker that
 * cannot render webpages says so when it starts rather than on its first webpage job, and says
 * how its pages will be isolated (environment, user, sandbox).
 */
export async function checkChromium(
  executablePath: string | undefined,
  isolation: {
    environment: Readonly<Record<string, string | undefined>>;
    /** BROWSER_USER. */
    user: string | undefined;
    /** HELPER_LAUNCHER. */
    launcher?: string | undefined;
  },
  timeoutMs = 30_000,
): Promise<ChromiumCheck> {
  const where = executablePath ?? "Playwright's own download";
  let launcher: ChromiumLauncher | undefined;
  try {
    launcher = await ChromiumLauncher.create({
      ...(executablePath === undefined ? {} : { executablePath }),
      ...isolation,
    });
    const browser = await launcher.launch({
      headless: true,
      args: [...CHROMIUM_BASE_ARGS],
      timeout: timeoutMs,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const version = browser.version();
    await browser.close();
    const { user, sandbox, userNotApplied } = launcher.isolation;
    return {
      name: 'chromium',
      ok: true,
      message: `Chromium ${version} at ${where}: environment allow-listed, user ${user}, sandbox ${sandbox}${userNotApplied ? ` (${userNotApplied})` : ''}`,
      isolation: launcher.isolation,
    };
  } catch (err) {
    const reason = errorSummary(err).message.split('\n')[0] ?? 'unknown error';
    return {
      name: 'chromium',
      ok: false,
      message:
        `Chromium could not be started (${where}): ${reason}. Webpage sources fail until it can: ` +
        'install it (Debian: apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.',
    };
  } finally {
    await launcher?.dispose();
  }
}

/** The converter check also says how conversions are isolated, for the start-up line. */
export interface ConverterCheck extends StartupCheck {
  isolation?: ConverterIsolation;
}

/**
 * Finds LibreOffice and decides how conversions will be isolated (user, network namespace,
 * memory bound), without converting anything: a worker that cannot read documents says so when
 * it starts. Not part of readiness: such a worker serves every other kind.
 */
export async function checkConverter(settings: {
  executable: string | undefined;
  user: string | undefined;
  launcher?: string | undefined;
  memoryMb: number;
  environment: Readonly<Record<string, string | undefined>>;
  requireIsolation?: boolean | undefined;
}): Promise<ConverterCheck> {
  const where = settings.executable ?? DEFAULT_SOFFICE;
  const converter = createDocumentConverter({
    ...settings,
    timeoutMs: 1000,
    concurrency: 1,
  });
  try {
    const isolation = await converter.isolation();
    return {
      name: 'converter',
      ok: true,
      message: `LibreOffice at ${where}: environment allow-listed, user ${isolation.user}, network ${isolation.network}, processes ${isolation.processes}, memory ${isolation.memory}${isolation.userNotApplied ? ` (${isolation.userNotApplied})` : ''}`,
      isolation,
    };
  } catch (err) {
    return {
      name: 'converter',
      ok: false,
      message: `Documents cannot be converted: ${errorSummary(err).message}. Document sources fail until they can.`,
    };
  }
}

/** What a worker found at start-up; `ready` is false while something it needs is missing. */
export interface WorkerReadiness {
  ready: boolean;
  checks: StartupCheck[];
}

/** Ready once all `expected` checks have answered and each found what it looked for. */
export function readinessOf(checks: StartupCheck[], expected: number): WorkerReadiness {
  return { ready: checks.length >= expected && checks.every((c) => c.ok), checks: [...checks] };
}
