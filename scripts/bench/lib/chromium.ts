/**
 * The bare Playwright baseline: Debian's Chromium with the project's flags, a fresh context
 * per page, and the same readiness rule as the worker's renderer (after DOMContentLoaded, no
 * request in flight and none started or finished for `quietMs`), so the two differ only in
 * what the service adds (filtering proxy, in-page extraction, Markdown, screenshots).
 */
import { chromium, type Browser, type Request } from 'playwright-core';
import { CHROMIUM_BASE_ARGS } from '@xt/runtime';

export function launchBare(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_BASE_ARGS],
  });
}

export async function bareRender(
  browser: Browser,
  url: string,
  quietMs: number,
  timeoutMs = 30_000,
): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const inflight = new Set<Request>();
    let last = Date.now();
    let loaded = false;
    page.on('request', (r) => {
      inflight.add(r);
      last = Date.now();
    });
    const done = (r: Request) => {
      inflight.delete(r);
      last = Date.now();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    page.on('domcontentloaded', () => {
      loaded = true;
      last = Date.now();
    });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
    const deadline = Date.now() + timeoutMs;
    while (!(loaded && inflight.size === 0 && Date.now() - last >= quietMs)) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return await page.content();
  } finally {
    await context.close();
  }
}
