import type { Page, Request } from 'playwright-core';

export interface QuietOptions {
  /** Required stretch without any request starting or ending. */
  quietMs: number;
  /**
   * Requests open longer than this are taken for streams (long polling, SSE, a never-ending
   * image) and stop counting: otherwise one of them would hold every page until its deadline.
   */
  streamGraceMs: number;
  /** Absolute time (ms since epoch) at which waiting gives up. */
  until: number;
  signal?: AbortSignal | undefined;
}

/**
 * Watches a page's requests from Node, so settling never needs the page's main thread (a page
 * stuck in a script loop cannot answer an evaluate, but its network events still arrive).
 */
export class NetworkWatch {
  readonly #inflight = new Map<Request, number>();
  #lastActivity = Date.now();
  #contentLoaded = false;

  constructor(page: Page) {
    page.on('request', (r) => {
      this.#inflight.set(r, Date.now());
      this.#lastActivity = Date.now();
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
    for (const started of this.#inflight.values()) {
      if (now - started < opts.streamGraceMs) return false;
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
