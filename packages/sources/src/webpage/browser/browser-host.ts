import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { outsideLogContext } from '@xt/runtime';
import { CHROMIUM_ARGS } from './chromium-args.ts';
import { ChromiumLauncher } from './launcher.ts';
import type { WebpageLogger } from '../logger.ts';

export interface BrowserHostOptions {
  /** Chromium binary; when absent Playwright looks for its own download. */
  executablePath?: string;
  /**
   * The process's environment; Chromium gets only the harmless part of it (browserEnvironment),
   * never the service's secrets.
   */
  environment: Readonly<Record<string, string | undefined>>;
  /** Who Chromium runs as when the worker is root (BROWSER_USER); default `nobody`. */
  user?: string;
  /** The helper launcher's socket (HELPER_LAUNCHER): Chromium is started by it. */
  launcher?: string;
  /** The filtering proxy every context must use. */
  proxyServer: string;
  maxPagesPerBrowser: number;
  /** Summed resident memory of the browser's processes above which it is replaced. */
  maxBrowserRssBytes: number;
  logger: WebpageLogger;
}

export interface BrowserLease {
  readonly browser: Browser;
  release(): void;
}

interface Instance {
  readonly id: number;
  readonly launched: Promise<Browser>;
  pages: number;
  active: number;
  retiring: boolean;
}

/** How often (in released pages) the browser's memory is sampled; sampling costs a CDP call. */
const MEMORY_SAMPLE_EVERY = 5;

/** Resident set size of a process from /proc; 0 where that is not available. */
async function rssBytes(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
  }
}

/** Sum of resident memory over the browser and all its child processes (Linux; best effort). */
export async function browserRssBytes(browser: Browser): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  try {
    const info = (await session.send('SystemInfo.getProcessInfo')) as {
      processInfo: { id: number }[];
    };
    const sizes = await Promise.all(info.processInfo.map((p) => rssBytes(p.id)));
    return sizes.reduce((a, b) => a + b, 0);
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/**
 * One browser per worker process, launched on first use and shared by concurrent jobs. It is
 * replaced after a number of pages, when it disconnects (crash) or when it grows too large:
 * long-lived Chromium processes accumulate memory and state, and a fresh one costs ~0.5 s.
 * A retiring browser keeps serving the jobs that hold it and closes when the last one ends.
 */
export class BrowserHost {
  readonly #opts: BrowserHostOptions;
  #current: Instance | null = null;
  #nextId = 1;
  #closed = false;
  readonly #all = new Set<Instance>();
  #leased = 0;
  #launcher: Promise<ChromiumLauncher> | undefined;

  constructor(opts: BrowserHostOptions) {
    this.#opts = opts;
  }

  /** Number of browsers launched so far; lets tests and benchmarks see recycling happen. */
  get launches(): number {
    return this.#nextId - 1;
  }

  /** Leases held now: each is one page's browser context (for the contexts-open gauge). */
  get leased(): number {
    return this.#leased;
  }

  async acquire(): Promise<BrowserLease> {
    if (this.#closed) throw new Error('browser host is closed');
    const instance = this.#current && !this.#current.retiring ? this.#current : this.#launch();
    instance.pages += 1;
    instance.active += 1;
    if (instance.pages >= this.#opts.maxPagesPerBrowser)
      this.#retire(instance, 'page budget reached');
    let browser: Browser;
    try {
      browser = await instance.launched;
    } catch (err) {
      instance.active -= 1;
      this.#retire(instance, 'launch failed');
      throw err;
    }
    let released = false;
    this.#leased += 1;
    return {
      browser,
      release: () => {
        if (released) return;
        released = true;
        this.#leased -= 1;
        instance.active -= 1;
        if (instance.retiring) this.#closeIfIdle(instance);
        else if (instance.pages % MEMORY_SAMPLE_EVERY === 0)
          void this.#checkMemory(instance, browser);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#current = null;
    await Promise.all(
      [...this.#all].map(async (instance) => {
        instance.retiring = true;
        this.#all.delete(instance);
        const browser = await instance.launched.catch(() => null);
        await browser?.close().catch(() => undefined);
      }),
    );
    const launcher = await this.#launcher?.catch(() => undefined);
    await launcher?.dispose();
  }

  #launch(): Instance {
    const id = this.#nextId++;
    // Made once, on first use: it finds the user, and on its first launch whether the sandbox works.
    const launcher = (this.#launcher ??= ChromiumLauncher.create({
      ...(this.#opts.executablePath === undefined
        ? {}
        : { executablePath: this.#opts.executablePath }),
      environment: this.#opts.environment,
      ...(this.#opts.user === undefined ? {} : { user: this.#opts.user }),
      ...(this.#opts.launcher === undefined ? {} : { launcher: this.#opts.launcher }),
    }));
    // Serves later jobs too: launched outside this job's log context (docs/logging.md).
    const launched = outsideLogContext(async () => {
      const isolated = await launcher;
      const browser = await isolated.launch({
        headless: true,
        args: [...CHROMIUM_ARGS],
        // The launch-wide proxy covers anything outside our contexts; credentials are per context.
        proxy: { server: this.#opts.proxyServer },
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      // What isolates the pages it renders (docs/security.md#browser-isolation).
      this.#opts.logger.info(
        { browser: id, version: browser.version(), ...isolated.isolation },
        'chromium launched',
      );
      return browser;
    });
    const instance: Instance = { id, launched, pages: 0, active: 0, retiring: false };
    this.#current = instance;
    this.#all.add(instance);
    launched.then(
      (browser) => {
        browser.on('disconnected', () => {
          this.#all.delete(instance);
          if (!instance.retiring) this.#opts.logger.warn({ browser: id }, 'chromium disconnected');
          instance.retiring = true;
          if (this.#current === instance) this.#current = null;
        });
      },
      (err: unknown) => this.#opts.logger.warn({ browser: id, err }, 'chromium failed to launch'),
    );
    return instance;
  }

  #retire(instance: Instance, reason: string): void {
    if (instance.retiring) return;
    instance.retiring = true;
    if (this.#current === instance) this.#current = null;
    this.#opts.logger.info(
      { browser: instance.id, pages: instance.pages, reason },
      'recycling chromium',
    );
    this.#closeIfIdle(instance);
  }

  #closeIfIdle(instance: Instance): void {
    if (instance.active > 0 || !this.#all.has(instance)) return;
    this.#all.delete(instance);
    void instance.launched.then(
      (browser) => browser.close().catch(() => undefined),
      () => undefined,
    );
  }

  async #checkMemory(instance: Instance, browser: Browser): Promise<void> {
    try {
      const rss = await browserRssBytes(browser);
      if (rss > this.#opts.maxBrowserRssBytes)
        this.#retire(instance, `memory ${Math.round(rss / 2 ** 20)} MiB`);
    } catch {
      // Sampling is advisory: a browser that cannot answer will be caught by the page budget.
    }
  }
}
