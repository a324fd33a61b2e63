import { ExtractionFailure, type PublicModel } from '@xt/contract';
import { resolveAndCheck, type Allowlist, type LookupAll } from '@xt/fetcher';
import { outsideLogContext } from '@xt/runtime';
import { BrowserHost } from './browser/index.ts';
import { silentLogger, type WebpageLogger } from './logger.ts';
import {
  startFilteringProxy,
  type FilteringProxy,
  type ProxyCounters,
  type TargetCheck,
} from './egress/index.ts';
import { loadPageScript } from './markdown/index.ts';
import { renderPage, type RenderSettings } from './page/index.ts';
import type { RenderedWebpage } from './types.ts';

export interface WebpageRendererOptions {
  /** Chromium binary (Debian's /usr/bin/chromium here); Playwright's own browser when absent. */
  executablePath?: string;
  /** The process's environment, of which Chromium gets only the harmless variables; none when absent. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Who Chromium runs as when the worker is root (BROWSER_USER); default `nobody`. */
  browserUser?: string;
  /** The helper launcher's socket (HELPER_LAUNCHER): Chromium is started by it. */
  launcher?: string;
  /** Places exempt from the public-address rule (`SOURCE_ALLOWLIST`). */
  allowlist: Allowlist;
  /** Whole budget of one render: navigation, settling and reading the page. */
  pageTimeoutMs: number;
  /** Network silence that counts as "settled" after the document has loaded. */
  networkIdleMs: number;
  maxPagesPerBrowser: number;
  maxHtmlBytes: number;
  userAgent?: string;
  logger?: WebpageLogger;
  /** Everything one page may pull through the proxy; default max(64 MiB, 4 × maxHtmlBytes). */
  maxTransferBytes?: number;
  /** Browser memory above which it is replaced; default 1.5 GiB. */
  maxBrowserRssBytes?: number;
  /** Redirect hops allowed for the main document; default 10 (docs/api.md#limits). */
  maxRedirects?: number;
  /** Below this many non-whitespace characters of Markdown a screenshot is sent too; default 200. */
  minTextChars?: number;
  /** Tallest full-page screenshot taken, in CSS pixels; default 8000. */
  maxScreenshotHeight?: number;
  /** DNS for the proxy's checks; injectable so tests can give names to loopback fixtures. */
  lookup?: LookupAll;
}

export interface WebpageRenderer {
  render(
    url: string,
    opts?: { signal?: AbortSignal; model?: PublicModel; images?: boolean | undefined },
  ): Promise<RenderedWebpage>;
  /** Proxy decisions so far, for metrics and tests. */
  readonly proxyCounters: Readonly<ProxyCounters> | null;
  /** Browsers launched so far (recycling shows up here). */
  readonly browserLaunches: number;
  /** Pages (each in its own browser context) being rendered now. */
  readonly contextsOpen: number;
  close(): Promise<void>;
}

/**
 * One per worker process: a filtering proxy and a Chromium shared by all jobs, both started on
 * first use. Each `render` gets its own browser context and its own proxy credential.
 */
export function createWebpageRenderer(opts: WebpageRendererOptions): WebpageRenderer {
  const logger = opts.logger ?? silentLogger;
  const check: TargetCheck = (host, port) =>
    resolveAndCheck(host, port, opts.allowlist, opts.lookup ? { lookup: opts.lookup } : {});
  const settings: RenderSettings = {
    pageTimeoutMs: opts.pageTimeoutMs,
    networkIdleMs: opts.networkIdleMs,
    maxHtmlBytes: opts.maxHtmlBytes,
    maxTransferBytes: opts.maxTransferBytes ?? Math.max(64 * 2 ** 20, 4 * opts.maxHtmlBytes),
    maxRedirects: opts.maxRedirects ?? 10,
    minTextChars: opts.minTextChars ?? 200,
    maxScreenshotHeight: opts.maxScreenshotHeight ?? 8000,
    userAgent: opts.userAgent,
    check,
    logger,
  };
  let started: Promise<{ proxy: FilteringProxy; host: BrowserHost; pageScript: string }> | null =
    null;
  let proxyRef: FilteringProxy | null = null;
  let hostRef: BrowserHost | null = null;
  let closed = false;

  const start = (): Promise<{ proxy: FilteringProxy; host: BrowserHost; pageScript: string }> => {
    // Shared by every later job: started outside this job's log context (docs/logging.md).
    started ??= outsideLogContext(async () => {
      const pageScript = await loadPageScript();
      const proxy = await startFilteringProxy({ check, logger });
      const host = new BrowserHost({
        ...(opts.executablePath === undefined ? {} : { executablePath: opts.executablePath }),
        proxyServer: proxy.server,
        environment: opts.environment ?? {},
        ...(opts.browserUser === undefined ? {} : { user: opts.browserUser }),
        ...(opts.launcher === undefined ? {} : { launcher: opts.launcher }),
        maxPagesPerBrowser: opts.maxPagesPerBrowser,
        maxBrowserRssBytes: opts.maxBrowserRssBytes ?? 1.5 * 2 ** 30,
        logger,
      });
      proxyRef = proxy;
      hostRef = host;
      return { proxy, host, pageScript };
    });
    started.catch(() => {
      started = null;
    });
    return started;
  };

  return {
    async render(url, renderOpts = {}) {
      if (closed)
        throw new ExtractionFailure('INTERNAL', 'The webpage renderer is closed.', {
          retryable: true,
        });
      const { proxy, host, pageScript } = await start();
      return renderPage(url, {
        proxy,
        host,
        pageScript,
        settings,
        model: renderOpts.model ?? 'gpt-4.1',
        images: renderOpts.images,
        signal: renderOpts.signal,
      });
    },
    get proxyCounters() {
      return proxyRef?.counters ?? null;
    },
    get browserLaunches() {
      return hostRef?.launches ?? 0;
    },
    get contextsOpen() {
      return hostRef?.leased ?? 0;
    },
    async close() {
      closed = true;
      const running = await started?.catch(() => null);
      if (!running) return;
      await running.host.close();
      await running.proxy.close();
    },
  };
}
