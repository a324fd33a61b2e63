/** The worker's webpage renderer with the worker's default settings, for sections 6 and 7. */
import { parseAllowlist } from '@xt/fetcher';
import { createWebpageRenderer } from '@xt/sources';

export const NETWORK_IDLE_MS = 500; // the worker's NETWORK_IDLE_MS default

export function workerRenderer(hostPort: string) {
  return createWebpageRenderer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    allowlist: parseAllowlist(hostPort),
    pageTimeoutMs: 45_000,
    networkIdleMs: NETWORK_IDLE_MS,
    maxPagesPerBrowser: 100,
    maxHtmlBytes: 10 * 2 ** 20,
  });
}
