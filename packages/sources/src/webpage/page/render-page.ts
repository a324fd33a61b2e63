import pTimeout from 'p-timeout';
import { errors, type BrowserContext, type Response } from 'playwright-core';
import { ExtractionFailure, type PublicModel } from '@xt/contract';
import type { BrowserHost } from '../browser/index.ts';
import type { FilteringProxy, ProxySession, TargetCheck } from '../egress/index.ts';
import type { WebpageLogger } from '../logger.ts';
import type { PageSnapshot } from '../markdown/index.ts';
import type { RenderedWebpage } from '../types.ts';
import { capturePage } from './capture.ts';
import { crashFailure, openGuardedPage, type GuardedPage } from './guarded-page.ts';
import {
  contentTypeFailure,
  navigationFailure,
  refusalFailure,
  refusalFor,
  statusFailure,
} from './main-document.ts';
import { contentParts, VIEWPORT } from './page-content.ts';

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
  /** false: the model takes no images, so no screenshot is taken. */
  images?: boolean | undefined;
  signal: AbortSignal | undefined;
  /** The bundled DOM → Markdown extractor (markdown/page-script.ts). */
  pageScript: string;
}

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

/** Goes to the target until the main document commits, and checks that document. */
async function navigate(
  guarded: GuardedPage,
  target: URL,
  session: ProxySession,
  deps: RenderDeps,
  until: number,
): Promise<Response> {
  let response: Response | null;
  try {
    response = await guarded.page.goto(target.href, {
      waitUntil: 'commit',
      timeout: Math.max(1, until - Date.now()),
    });
  } catch (err) {
    deps.signal?.throwIfAborted();
    if (guarded.crashed()) throw crashFailure();
    throw navigationFailure(err, session.refusals, err instanceof errors.TimeoutError);
  }
  guarded.markCommitted();
  if (!response)
    throw new ExtractionFailure('SOURCE_UNREACHABLE', 'The page produced no document.');
  checkMainResponse(response, session, deps.settings);
  return response;
}

/** Waits for the network to settle (until `settleUntil`), then reads the DOM by `deadline`. */
async function settleAndRead(
  guarded: GuardedPage,
  session: ProxySession,
  deps: RenderDeps,
  times: { settleUntil: number; deadline: number; mark(phase: string): void },
): Promise<PageSnapshot> {
  const { settings, signal } = deps;
  await guarded.watch.waitQuiet({
    quietMs: settings.networkIdleMs,
    until: times.settleUntil,
    signal,
  });
  times.mark('settledMs');
  signal?.throwIfAborted();
  const snapshot = await capturePage(guarded.cdp, {
    until: times.deadline,
    maxChars: MAX_MARKDOWN_CHARS,
    pageScript: deps.pageScript,
  });
  times.mark('capturedMs');
  signal?.throwIfAborted();
  if (guarded.crashed()) throw crashFailure();
  if (!snapshot) {
    throw new ExtractionFailure('TIMEOUT', 'The page could not be read before the deadline.', {
      retryable: true,
    });
  }
  const tooLarge = session.refusals.find((r) => r.code === 'SOURCE_TOO_LARGE');
  if (tooLarge) throw refusalFailure(tooLarge);
  return snapshot;
}

/** The page's size in bytes: its HTML, or the rendered DOM's once a script navigated on. */
async function htmlSize(
  response: Response,
  snapshot: PageSnapshot,
  settings: RenderSettings,
): Promise<number> {
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
  return htmlBytes;
}

async function renderInContext(
  context: BrowserContext,
  target: URL,
  session: ProxySession,
  deps: RenderDeps,
  deadline: number,
): Promise<RenderedWebpage> {
  const { settings } = deps;
  const reserve = Math.min(5000, Math.max(1000, settings.pageTimeoutMs * 0.2));
  const settleUntil = deadline - reserve;
  const guarded = await openGuardedPage(context, settings);
  const startedAt = Date.now();
  const timings: Record<string, number> = {};
  const mark = (phase: string): void => {
    timings[phase] = Date.now() - startedAt;
  };

  const response = await navigate(guarded, target, session, deps, settleUntil);
  mark('committedMs');
  const snapshot = await settleAndRead(guarded, session, deps, { settleUntil, deadline, mark });
  const finalUrl = guarded.page.url();
  if (!/^https?:/i.test(finalUrl)) {
    throw new ExtractionFailure(
      'SOURCE_UNREACHABLE',
      'The page navigated to an error page while loading.',
      { retryable: true },
    );
  }
  const htmlBytes = await htmlSize(response, snapshot, settings);
  const { parts, sections, screenshots, leftOut } = await contentParts(
    guarded.page,
    { snapshot, finalUrl, contentLoaded: guarded.watch.contentLoaded },
    deps,
  );
  if (screenshots) mark('screenshotMs');
  const title = snapshot.title;
  const markdownChars = sections.join('\n\n').length;
  settings.logger.debug(
    { url: target.href, finalUrl, htmlBytes, markdownChars, parts: parts.length, ...timings },
    'webpage rendered',
  );
  return {
    parts,
    meta: { title, url: finalUrl },
    finalUrl,
    title,
    htmlBytes,
    markdownChars,
    ...(leftOut ? { imagesAsText: { pages: 0, images: 0, leftOut: 1 } } : {}),
    // The page's text stops where the Markdown limit was reached (SOURCE_TRUNCATED).
    ...(markdownChars > MAX_MARKDOWN_CHARS
      ? {
          truncated: {
            message: `Only the first ${MAX_MARKDOWN_CHARS} characters of the page's text were read.`,
          },
        }
      : {}),
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
