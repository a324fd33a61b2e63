import { chromium } from 'playwright-core';
import { errorSummary } from '@xt/runtime';

/** One thing a worker needs, checked at start-up. */
export interface StartupCheck {
  name: string;
  ok: boolean;
  /** What was found, or what is missing and how to fix it. */
  message: string;
}

/**
 * Starts Chromium once and closes it, so a worker that cannot render webpages says so when it
 * starts rather than on its first webpage job.
 */
export async function checkChromium(
  executablePath: string | undefined,
  timeoutMs = 30_000,
): Promise<StartupCheck> {
  const where = executablePath ?? "Playwright's own download";
  try {
    const browser = await chromium.launch({
      ...(executablePath === undefined ? {} : { executablePath }),
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      timeout: timeoutMs,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const version = browser.version();
    await browser.close();
    return { name: 'chromium', ok: true, message: `Chromium ${version} at ${where}` };
  } catch (err) {
    const reason = errorSummary(err).message.split('\n')[0] ?? 'unknown error';
    return {
      name: 'chromium',
      ok: false,
      message:
        `Chromium could not be started (${where}): ${reason}. Webpage sources fail until it can: ` +
        'install it (Debian: apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary.',
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
