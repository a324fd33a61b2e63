import type { Page, Route } from 'playwright-core';
import type { WebpageLogger } from '../logger.ts';
import type { TargetCheck } from './proxy.ts';

/**
 * Second line behind the proxy, for what the proxy cannot judge well:
 * - schemes other than http(s) never leave the browser;
 * - once the page has committed, a main-frame navigation to a forbidden place (meta refresh,
 *   `location = …`, a form) is cancelled here, so the page we were asked for stays on screen
 *   instead of being replaced by the proxy's refusal. The proxy still checks the hop itself.
 */
export function routeGuard(opts: {
  page: () => Page | undefined;
  committed: () => boolean;
  check: TargetCheck;
  logger: WebpageLogger;
}): (route: Route) => Promise<void> {
  return async (route) => {
    const request = route.request();
    try {
      const url = new URL(request.url());
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        opts.logger.warn(
          { scheme: url.protocol },
          'webpage request with a non-http(s) scheme blocked',
        );
        await route.abort('blockedbyclient');
        return;
      }
      const page = opts.page();
      if (
        opts.committed() &&
        page &&
        request.isNavigationRequest() &&
        request.frame() === page.mainFrame()
      ) {
        const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
        try {
          await opts.check(url.hostname, port);
        } catch (err) {
          opts.logger.warn(
            { host: url.hostname, port, reason: err instanceof Error ? err.message : String(err) },
            'webpage navigation away to a refused place cancelled',
          );
          await route.abort('aborted');
          return;
        }
      }
      await route.continue();
    } catch {
      // The page or context closed while the request was held; nothing left to decide.
      await route.abort('aborted').catch(() => undefined);
    }
  };
}
