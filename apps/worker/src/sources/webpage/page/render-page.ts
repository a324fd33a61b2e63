import pTimeout from 'p-timeout';
import { errors, type BrowserContext, type Page, type Response } from 'playwright-core';
import { ExtractionFailure, type ContentPart, type PublicModel } from '@xt/contract';
import type { BrowserHost } from '../browser/index.ts';
import { capturePage } from './capture.ts';
import type { WebpageLogger } from '../logger.ts';
import {
  contentTypeFailure,
  navigationFailure,
  refusalFailure,
  refusalFor,
  statusFailure,
} from './main-document.ts';
import {
  documentHeader,
  dropRepeatedBlocks,
  nonWhitespaceChars,
  splitBlocks,
  splitSections,
} from '../markdown/index.ts';
import { NetworkWatch } from './network-watch.ts';
import {
  routeGuard,
  type FilteringProxy,
  type ProxySession,
  type TargetCheck,
} from '../egress/index.ts';
import type { RenderedWebpage } from '../types.ts';
import { tileGeometry, tileScreenshot } from './screenshot-tiles.ts';

export interface RenderSettings {
  pageTimeoutMs: number;
  networkIdleMs: number;
  maxHtmlBytes: number;
  maxTransferBytes: number;
  maxRedirects: number;
  minTextChars: number;
  maxScreenshotHeight: number;
  userAgent: string | undefined;
  check: TargetCheck;
  logger: WebpageLogger;
}

interface RenderDeps {
  proxy: FilteringProxy;
  host: BrowserHost;
  settings: RenderSettings;
  model: PublicModel;
  signal: AbortSignal | undefined;
  /** The bundled DOM → Markdown extractor (markdown/page-script.ts). */
  pageScript: string;
}

const VIEWPORT = { width: 1024, height: 768 };
/** Requests open longer than this (×3 for data requests) count as streams when settling. */
const STREAM_GRACE_MS = 5_000;
/** Screenshots run only for pages without text; they get their own bound past the deadline. */
const SCREENSHOT_TIMEOUT_MS = 10_000;
/** Markdown longer than this is cut: it is far beyond any model context anyway. */
const MAX_MARKDOWN_CHARS = 4_000_000;

function parseTarget(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ExtractionFailure('SOURCE_UNSUPPORTED', 'The source is not a valid URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ExtractionFailure(
      'SOURCE_UNSUPPORTED',
      'Only http and https web pages can be rendered.',
    );
  }
  return parsed;
}

/**
 * Rejects with the signal's reason the moment it aborts, whatever the promise is doing: a context
 * closed while Playwright is still creating a page can leave that call pending for good, and a
 * cancelled job must not wait on it (the `finally` below cleans up, bounded).
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return pTimeout(promise, { milliseconds: Number.POSITIVE_INFINITY, signal });
}

/** The promise's value, or undefined once `ms` have passed (its later failure is ignored). */
function bounded<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return pTimeout(promise, { milliseconds: ms, fallback: () => undefined }).catch(() => undefined);
}

function redirectHops(response: Response): number {
  let hops = 0;
  for (let r = response.request().redirectedFrom(); r; r = r.redirectedFrom()) hops += 1;
  return hops;
}

/** Fails fast on a main document that is not a usable page (refused, error status, wrong type). */
function checkMainResponse(
  response: Response,
  session: ProxySession,
  settings: RenderSettings,
): void {
  const headers = response.headers();
  if (headers['x-xt-proxy-refusal'] !== undefined) {
    const refusal = refusalFor(response.url(), session.refusals);
    if (refusal) throw refusalFailure(refusal);
  }
  const byStatus = statusFailure(response.status(), response.url());
  if (byStatus) throw byStatus;
  if (redirectHops(response) > settings.maxRedirects) {
    throw new ExtractionFailure(
      'SOURCE_UNREACHABLE',
      `The page redirects more than ${settings.maxRedirects} times.`,
    );
  }
  const byType = contentTypeFailure(headers['content-type']);
  if (byType) throw byType;
  const declared = Number(headers['content-length'] ?? NaN);
  if (declared > settings.maxHtmlBytes) {
    throw new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The page is larger than ${settings.maxHtmlBytes} bytes.`,
    );
  }
}

async function screenshotParts(
  page: Page,
  scrollHeight: number,
  deps: RenderDeps,
  firstUnit: number,
): Promise<ContentPart[]> {
  const height = Math.max(1, Math.min(scrollHeight, deps.settings.maxScreenshotHeight));
  try {
    const png = await page.screenshot({
      type: 'png',
      fullPage: true,
      clip: { x: 0, y: 0, width: VIEWPORT.width, height },
      timeout: SCREENSHOT_TIMEOUT_MS,
    });
    return await tileScreenshot(png, tileGeometry(deps.model), firstUnit);
  } catch (err) {
    deps.settings.logger.warn({ err }, 'webpage screenshot failed');
    return [];
  }
}

async function renderInContext(
  context: BrowserContext,
  target: URL,
  session: ProxySession,
  deps: RenderDeps,
  deadline: number,
): Promise<RenderedWebpage> {
  const { settings, signal } = deps;
  const reserve = Math.min(5000, Math.max(1000, settings.pageTimeoutMs * 0.2));
  const settleUntil = deadline - reserve;
  // Filled in once the page exists; the handlers below are installed before it is created.
  const main: { page?: Page } = {};
  let committed = false;
  context.on('page', (p) => {
    // Pop-ups (window.open, target=_blank) are closed at once; the proxy has judged any request.
    if (main.page && p !== main.page) void p.close().catch(() => undefined);
  });
  await context.route(
    '**/*',
    routeGuard({
      page: () => main.page,
      committed: () => committed,
      check: settings.check,
      logger: settings.logger,
    }),
  );
  const page = await context.newPage();
  main.page = page;
  page.on('download', (d) => void d.cancel().catch(() => undefined));
  page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
  });
  // A renderer that dies on one page (memory bomb, renderer bug) will most likely die again.
  const crashFailure = (): ExtractionFailure =>
    new ExtractionFailure('SOURCE_UNREADABLE', 'The page crashed the browser while rendering.');
  const cdp = await context.newCDPSession(page);
  const watch = new NetworkWatch(page, STREAM_GRACE_MS);
  const startedAt = Date.now();
  const timings: Record<string, number> = {};
  const mark = (phase: string): void => {
    timings[phase] = Date.now() - startedAt;
  };

  let response: Response | null;
  try {
    response = await page.goto(target.href, {
      waitUntil: 'commit',
      timeout: Math.max(1, settleUntil - Date.now()),
    });
  } catch (err) {
    signal?.throwIfAborted();
    if (crashed) throw crashFailure();
    throw navigationFailure(err, session.refusals, err instanceof errors.TimeoutError);
  }
  committed = true;
  mark('committedMs');
  if (!response)
    throw new ExtractionFailure('SOURCE_UNREACHABLE', 'The page produced no document.');
  checkMainResponse(response, session, settings);

  await watch.waitQuiet({
    quietMs: settings.networkIdleMs,
    until: settleUntil,
    signal,
  });
  mark('settledMs');
  signal?.throwIfAborted();
  const snapshot = await capturePage(cdp, {
    until: deadline,
    maxChars: MAX_MARKDOWN_CHARS,
    pageScript: deps.pageScript,
  });
  mark('capturedMs');
  signal?.throwIfAborted();
  if (crashed) throw crashFailure();
  if (!snapshot) {
    throw new ExtractionFailure('TIMEOUT', 'The page could not be read before the deadline.', {
      retryable: true,
    });
  }
  const tooLarge = session.refusals.find((r) => r.code === 'SOURCE_TOO_LARGE');
  if (tooLarge) throw refusalFailure(tooLarge);

  const finalUrl = page.url();
  if (!/^https?:/i.test(finalUrl)) {
    throw new ExtractionFailure(
      'SOURCE_UNREACHABLE',
      'The page navigated to an error page while loading.',
      {
        retryable: true,
      },
    );
  }
  // The body is gone once a script navigated on; the rendered DOM's size stands in then.
  const body = await bounded(
    response.body().catch(() => undefined),
    500,
  );
  const htmlBytes = body?.length ?? snapshot.domChars;
  if (htmlBytes > settings.maxHtmlBytes) {
    throw new ExtractionFailure(
      'SOURCE_TOO_LARGE',
      `The page is larger than ${settings.maxHtmlBytes} bytes.`,
    );
  }

  const blocks = dropRepeatedBlocks(splitBlocks(snapshot.markdown));
  const title = snapshot.title;
  const sections = splitSections(documentHeader(title, finalUrl), blocks);
  const parts: ContentPart[] = sections.map((text, i) => ({ kind: 'text', text, unit: i + 1 }));
  const bodyChars = nonWhitespaceChars(blocks.join('\n'));
  if (bodyChars < settings.minTextChars) {
    parts.push(...(await screenshotParts(page, snapshot.scrollHeight, deps, sections.length + 1)));
    mark('screenshotMs');
  }
  if (bodyChars === 0 && parts.every((p) => p.kind === 'text')) {
    if (!watch.contentLoaded) {
      throw new ExtractionFailure(
        'TIMEOUT',
        'The page had not rendered anything by the deadline.',
        { retryable: true },
      );
    }
    throw new ExtractionFailure('SOURCE_UNREADABLE', 'The page has no readable content.');
  }
  settings.logger.debug(
    {
      url: target.href,
      finalUrl,
      htmlBytes,
      markdownChars: sections.join('\n\n').length,
      parts: parts.length,
      ...timings,
    },
    'webpage rendered',
  );
  return {
    parts,
    meta: { title, url: finalUrl },
    finalUrl,
    title,
    htmlBytes,
    markdownChars: sections.join('\n\n').length,
  };
}

function chromeUserAgent(version: string): string {
  // Headless Chromium announces itself as "HeadlessChrome", which many sites answer with a block page.
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36`;
}

/** Renders one URL in a fresh context behind its own proxy credential, within the page deadline. */
export async function renderPage(url: string, deps: RenderDeps): Promise<RenderedWebpage> {
  const target = parseTarget(url);
  const { settings, signal } = deps;
  signal?.throwIfAborted();
  const deadline = Date.now() + settings.pageTimeoutMs;
  const session = deps.proxy.openSession({ maxBytes: settings.maxTransferBytes });
  let context: BrowserContext | undefined;
  const onAbort = (): void => void context?.close().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const lease = await deps.host.acquire().catch((err: unknown) => {
    session.close();
    signal?.removeEventListener('abort', onAbort);
    throw new ExtractionFailure('INTERNAL', 'Chromium could not be started.', {
      retryable: true,
      cause: err,
    });
  });
  try {
    const creating = lease.browser.newContext({
      proxy: { server: deps.proxy.server, username: session.username, password: session.password },
      serviceWorkers: 'block',
      acceptDownloads: false,
      javaScriptEnabled: true,
      bypassCSP: false,
      ignoreHTTPSErrors: false,
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      locale: 'en-US',
      userAgent: settings.userAgent ?? chromeUserAgent(lease.browser.version()),
    });
    // A context that arrives after the job was cancelled is closed as soon as it exists.
    void creating.then(
      (created) => (signal?.aborted ? created.close().catch(() => undefined) : undefined),
      () => undefined,
    );
    context = await untilAborted(creating, signal);
    signal?.throwIfAborted();
    return await untilAborted(renderInContext(context, target, session, deps, deadline), signal);
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (err instanceof ExtractionFailure) throw err;
    throw new ExtractionFailure(
      'INTERNAL',
      `Rendering failed: ${err instanceof Error ? err.message : String(err)}`,
      {
        retryable: true,
        cause: err,
      },
    );
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await bounded(context?.close() ?? Promise.resolve(), 5000);
    session.close();
    lease.release();
  }
}
