import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { ExtractionFailure } from '@xt/contract';
import { routeGuard, type TargetCheck } from '../egress/index.ts';
import type { WebpageLogger } from '../logger.ts';
import { NetworkWatch } from './network-watch.ts';

/** Requests open longer than this (×3 for data requests) count as streams when settling. */
const STREAM_GRACE_MS = 5_000;

/** The one page a job renders, with what it needs to read it and to know how it fared. */
export interface GuardedPage {
  page: Page;
  cdp: CDPSession;
  watch: NetworkWatch;
  /** Tells the route guard the main document has committed (later navigations are the page's). */
  markCommitted(): void;
  crashed(): boolean;
}

// A renderer that dies on one page (memory bomb, renderer bug) will most likely die again.
export const crashFailure = (): ExtractionFailure =>
  new ExtractionFailure('SOURCE_UNREADABLE', 'The page crashed the browser while rendering.');

/**
 * Opens the job's page in its fresh context with every guard in place before the first
 * request: pop-ups closed, downloads cancelled, dialogs dismissed, every request through the
 * route guard, crashes noted.
 */
export async function openGuardedPage(
  context: BrowserContext,
  guard: { check: TargetCheck; logger: WebpageLogger },
): Promise<GuardedPage> {
  // Filled in once the page exists; the handlers below are installed before it is created.
  const main: { page?: Page } = {};
  let committed = false;
  let crashed = false;
  context.on('page', (p) => {
    // Pop-ups (window.open, target=_blank) are closed at once; the proxy has judged any request.
    if (main.page && p !== main.page) void p.close().catch(() => undefined);
  });
  await context.route(
    '**/*',
    routeGuard({
      page: () => main.page,
      committed: () => committed,
      check: guard.check,
      logger: guard.logger,
    }),
  );
  const page = await context.newPage();
  main.page = page;
  page.on('download', (d) => void d.cancel().catch(() => undefined));
  page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
  page.on('crash', () => {
    crashed = true;
  });
  const cdp = await context.newCDPSession(page);
  return {
    page,
    cdp,
    watch: new NetworkWatch(page, STREAM_GRACE_MS),
    markCommitted: () => {
      committed = true;
    },
    crashed: () => crashed,
  };
}
