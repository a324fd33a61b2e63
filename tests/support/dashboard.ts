/**
 * Browser tests of the dashboard: the real API in this process (serving the built pages), real
 * PostgreSQL and Redis, and Debian's Chromium driven by playwright-core. Two accounts with one
 * user each; screenshots of every page go to .artifacts/dashboard/ (gitignored) at desktop and
 * phone width, for people to look at.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createUser } from '@xt/accounts';
import { ensureDashboardAssets } from '@xt/dashboard';
import { createDb } from '@xt/db';
import { CHROMIUM_BASE_ARGS } from '@xt/runtime';
import { REPO_ROOT } from '@xt/testkit';
import { startTestApi, type TestApi } from '@xt/api/testing';

export const ARTIFACTS = path.join(REPO_ROOT, '.artifacts', 'dashboard');
export const PASSWORD = 'correct horse battery staple';
export const USERS = { acme: 'ana@acme.test', globex: 'gus@globex.test' } as const;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface DashboardFixture {
  api: TestApi;
  browser: Browser;
  /** A fresh browser context (own cookies) at desktop size. */
  context(): Promise<BrowserContext>;
  /** A page in a fresh context, signed in as the account's user. */
  signedIn(account: keyof typeof USERS): Promise<Page>;
  close(): Promise<void>;
}

export async function startDashboard(env: Record<string, string> = {}): Promise<DashboardFixture> {
  await ensureDashboardAssets();
  const api = await startTestApi(env);
  const handle = createDb(api.database.url, { max: 1 });
  // Same account names as the test API's keys: `acme` owns keys.write and keys.read.
  await createUser(handle.db, { accountName: 'acme', email: USERS.acme, password: PASSWORD });
  await createUser(handle.db, { accountName: 'globex', email: USERS.globex, password: PASSWORD });
  await handle.close();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_BASE_ARGS],
  });
  const contexts: BrowserContext[] = [];
  const context = async () => {
    const c = await browser.newContext({ viewport: DESKTOP, baseURL: api.url });
    contexts.push(c);
    return c;
  };
  return {
    api,
    browser,
    context,
    async signedIn(account) {
      const page = await (await context()).newPage();
      await signIn(page, USERS[account]);
      return page;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await api.close();
    },
  };
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/dashboard/keys');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
}

/** Where the README's pictures are written; `npm run screenshots:readme` copies them to docs/. */
export const README_ARTIFACTS = path.join(ARTIFACTS, 'readme');

/** Full-page screenshots at desktop and phone width: `<name>.desktop.png`, `<name>.phone.png`. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  const before = page.viewportSize() ?? DESKTOP;
  // The top bar is sticky: scrolled down, a full-page shot would paint it mid-page.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.phone.png`), fullPage: true });
  const overflowing = await wideOnPhone(page);
  await page.setViewportSize(before);
  if (overflowing.length) {
    throw new Error(`${name}: wider than a ${PHONE.width} px phone: ${overflowing.join(', ')}`);
  }
}

/**
 * What is on the screen now, as scrolled, at the window's size: `<name>.<width>.png` under
 * `views/`. A full-page shot of a phone's 5,000 px page is too small to see a detail in.
 */
export async function viewShot(page: Page, name: string): Promise<void> {
  const dir = path.join(ARTIFACTS, 'views');
  await mkdir(dir, { recursive: true });
  const width = page.viewportSize()?.width ?? DESKTOP.width;
  await page.screenshot({ path: path.join(dir, `${name}.${width}.png`) });
}

/**
 * What does not fit the phone's width: the page itself, or a table, card or code block whose
 * content is wider than its box (cut off, or hidden behind a sideways scroll).
 */
function wideOnPhone(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const wide = (e) => e.scrollWidth > e.clientWidth + 1;
    const found = [];
    if (wide(document.documentElement)) found.push('the page');
    for (const e of document.querySelectorAll('.table-wrap, .card, .code, .secret__value')) {
      if (e.clientWidth > 0 && wide(e)) found.push(e.className + ' "' + e.textContent.slice(0, 40) + '"');
    }
    return found;
  })()`);
}

/** A picture for the README: the page at desktop width, as tall as its content. */
export async function readmeScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(README_ARTIFACTS, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(README_ARTIFACTS, `${name}.png`), fullPage: true });
}
