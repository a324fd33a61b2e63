import type { Page, Request } from 'playwright-core';

const DATA = new Set(['document', 'script', 'xhr', 'fetch']);
const NEVER_COUNTED = new Set(['eventsource', 'websocket', 'media']);

export interface QuietOptions {
  /** Required stretch without any request starting or ending. */
  quietMs: number;
  /** Absolute time (ms since epoch) at which waiting gives up. */
  until: number;
  signal?: AbortSignal | undefined;
}

/**
 * Watches a page's requests from Node, so settling never needs the page's main thread (a page
 * stuck in a script loop cannot answer an evaluate, but its network events still arrive).
 */
export class NetworkWatch {
  /** In-flight requests and the time after which each stops counting. */
  readonly #inflight = new Map<Request, number>();
  readonly #streamGraceMs: number;
  #lastActivity = Date.now();
  #contentLoaded = false;

  /**
   * `streamGraceMs`: requests open longer than this are taken for streams (long polling, a
   * never-ending image) and stop counting, otherwise one of them would hold every page until its
   * deadline. Data requests (document, script, XHR, fetch) get three times as long, since a slow
   * API answer is usually the very content a single-page app is waiting for; event streams,
   * WebSockets and media never count.
   */
  constructor(page: Page, streamGraceMs: number) {
    this.#streamGraceMs = streamGraceMs;
    page.on('request', (r) => {
      const type = r.resourceType();
      this.#lastActivity = Date.now();
      if (NEVER_COUNTED.has(type)) return;
      this.#inflight.set(r, Date.now() + (DATA.has(type) ? 3 : 1) * this.#streamGraceMs);
    });
    const done = (r: Request): void => {
      this.#inflight.delete(r);
      this.#lastActivity = Date.now();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    page.on('domcontentloaded', () => {
      this.#contentLoaded = true;
      this.#lastActivity = Date.now();
    });
  }

  get contentLoaded(): boolean {
    return this.#contentLoaded;
  }

  #quiet(now: number, opts: QuietOptions): boolean {
    if (!this.#contentLoaded || now - this.#lastActivity < opts.quietMs) return false;
    for (const ignoredAfter of this.#inflight.values()) {
      if (now < ignoredAfter) return false;
    }
    return true;
  }

  /** Resolves true once the page is quiet, false when the deadline (or an abort) came first. */
  async waitQuiet(opts: QuietOptions): Promise<boolean> {
    for (;;) {
      const now = Date.now();
      if (this.#quiet(now, opts)) return true;
      if (now >= opts.until || opts.signal?.aborted) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, opts.until - now)));
    }
  }
}
