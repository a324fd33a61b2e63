import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The Chromium binary webpages are rendered with: CHROMIUM_PATH, else Debian's, else Playwright's. */
export function chromiumExecutable(configured: string | undefined): string | undefined {
  if (configured) return configured;
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}
