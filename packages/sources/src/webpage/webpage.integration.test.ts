import { readFile } from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractionFailure, type ContentPart } from '@xt/contract';
import { parseAllowlist, type LookupAll } from '@xt/fetcher';
import { BrowserHost, browserRssBytes } from './browser/index.ts';
import { createWebpageRenderer, type RenderedWebpage, type WebpageRenderer } from './index.ts';
import {
  IMMERSIVE_BODY_START,
  IMMERSIVE_BYLINE,
  IMMERSIVE_HEADLINE,
  IMMERSIVE_STANDFIRST,
  startTestSite,
  STORY_LEAD,
  type TestSite,
} from '@xt/testkit/fixtures';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGE_TIMEOUT_MS = 6000;
/** Closing the context and tiling a screenshot may run a little past the render deadline. */
const DEADLINE_SLACK_MS = 2500;

/** Hermetic DNS: `localhost` is loopback, every other name does not exist. */
const lookup: LookupAll = (host) => {
  if (host === 'localhost') return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  return Promise.reject(
    Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }),
  );
};

let site: TestSite;
let silent: net.Server;
let silentHostPort: string;
let renderer: WebpageRenderer;

const text = (out: RenderedWebpage): string =>
  out.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n\n');
const images = (out: RenderedWebpage): Extract<ContentPart, { kind: 'image' }>[] =>
  out.parts.flatMap((p) => (p.kind === 'image' ? [p] : []));
const facts = (path: string): string[] => site.pages.find((p) => p.path === path)?.facts ?? [];

async function failure(promise: Promise<unknown>): Promise<ExtractionFailure> {
  const err: unknown = await promise.then(
    () => new Error('expected the render to fail'),
    (e: unknown) => e,
  );
  if (!(err instanceof ExtractionFailure)) throw err;
  return err;
}

beforeAll(async () => {
  site = await startTestSite();
  // Accepts connections and never answers: a main document that never starts.
  silent = net.createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentHostPort = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
  renderer = createWebpageRenderer({
    executablePath: CHROMIUM,
    allowlist: parseAllowlist(`${site.hostPort},${silentHostPort}`),
    pageTimeoutMs: PAGE_TIMEOUT_MS,
    networkIdleMs: 300,
    maxPagesPerBrowser: 100,
    maxHtmlBytes: 10 * 2 ** 20,
    lookup,
  });
  // Launch Chromium before the first timed render: on a busy machine the launch alone can take
  // most of a page's budget, and no test here is about launching.
  await renderer.render(`${site.origin}/late`).catch(() => undefined);
});

afterAll(async () => {
  await renderer?.close();
  silent?.close();
  await site?.close();
});

describe('webpage renderer: content', () => {
  it('keeps the article and its structure, drops chrome, hidden text and repeated boilerplate', async () => {
    const out = await renderer.render(`${site.origin}/article`);
    const md = text(out);
    for (const fact of facts('/article')) expect(md).toContain(fact);
    expect(md.startsWith(`# Quarterly Report\nURL: ${site.origin}/article`)).toBe(true);
    for (const gone of [
      'Acme Home',
      'Careers',
      'cookies',
      'Copyright 2026',
      'Privacy policy',
      'Sidebar teaser',
    ]) {
      expect(md).not.toContain(gone);
    }
    for (const gone of ['999999', '888888', '777777', '666666', '555555', 'color:red'])
      expect(md).not.toContain(gone);
    expect(md.split('Share this:').length - 1).toBe(1);
    expect(out.title).toBe('Quarterly Report');
    expect(out.finalUrl).toBe(`${site.origin}/article`);
    expect(out.meta).toEqual({ title: 'Quarterly Report', url: `${site.origin}/article` });
    expect(out.htmlBytes).toBeGreaterThan(out.markdownChars);
    expect(images(out)).toHaveLength(0);
    expect(out.parts.map((p) => p.unit)).toEqual(out.parts.map((_, i) => i + 1));
  });

  it('keeps what news pages put outside <main>, in iframes, labels, details and merged headers', async () => {
    const out = await renderer.render(`${site.origin}/news/1`);
    const md = text(out);
    for (const fact of facts('/news/1')) expect(md).toContain(fact);
    for (const gone of ['Section 12', 'dataLayer', 'Copyright 2026'])
      expect(md).not.toContain(gone);
    // What reaches the model stays a small share of the page's HTML.
    expect(md.length).toBeLessThanOrEqual(out.htmlBytes / 5);
  });

  it('keeps a story opening laid out around <main>: header, standfirst, byline and dateline', async () => {
    const md = text(await renderer.render(`${site.origin}/story-lead`));
    for (const fact of facts('/story-lead')) expect(md).toContain(fact);
    const words = STORY_LEAD.split(/\s+/);
    expect(words).toHaveLength(18);
    const reached = new Set(md.split(/\s+/));
    expect(words.filter((w) => !reached.has(w))).toEqual([]);
    // The link list between the opening and <main> is not taken for part of the story.
    expect(md).not.toContain('Most read story number');
    expect(md).not.toContain('[The Harbour Herald]');
  });

  it('keeps the standfirst and byline an immersive layout puts after its full-width header block', async () => {
    const md = text(await renderer.render(`${site.origin}/immersive-story`));
    for (const fact of facts('/immersive-story')) expect(md).toContain(fact);
    const words = IMMERSIVE_STANDFIRST.split(/\s+/);
    expect(words).toHaveLength(18);
    // All 18 words, in order, after the headline and before the story's first paragraph.
    const at = [
      `\n# ${IMMERSIVE_HEADLINE}\n`,
      IMMERSIVE_STANDFIRST,
      IMMERSIVE_BYLINE(site.origin),
      IMMERSIVE_BODY_START,
    ].map((s) => md.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      `positions ${at.join(', ')} in:\n${md}`,
    ).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    // The masthead and its menu, which share the header block, stay out.
    for (const gone of ['Tidewater Gazette - Back to home', 'Sign in', 'Climate analysis'])
      expect(md).not.toContain(gone);
  });

  it('reads the DOM from an isolated world the page cannot tamper with', async () => {
    const md = text(await renderer.render(`${site.origin}/tamper`));
    expect(md).toContain('Tamper fact: osprey 8128 survives prototype overrides.');
    expect(md).not.toContain('HACKED');
  });

  it('waits for text a script inserts after load', async () => {
    const out = await renderer.render(`${site.origin}/late`);
    expect(text(out)).toContain('The late fact is aurora 7731');
    expect(text(out)).not.toContain('Loading');
  });

  it('renders a single-page app that fetches its data by XHR', async () => {
    const md = text(await renderer.render(`${site.origin}/spa`));
    for (const fact of facts('/spa')) expect(md).toContain(fact);
  });

  it('turns data tables into Markdown tables and layout tables into text', async () => {
    const md = text(await renderer.render(`${site.origin}/tables`));
    for (const fact of facts('/tables')) expect(md).toContain(fact);
    expect(md).toContain('| Service | 2 | 40.00 |');
    expect(md).not.toContain('| Layout cell');
  });

  it('sends model-sized screenshot tiles for a page of images only', async () => {
    const out = await renderer.render(`${site.origin}/images`, { model: 'gpt-4.1-mini' });
    const tiles = images(out);
    expect(tiles.length).toBeGreaterThanOrEqual(2);
    for (const tile of tiles) {
      expect(tile.dataUrl.startsWith('data:image/jpeg;base64,')).toBe(true);
      const meta = await sharp(Buffer.from(tile.dataUrl.split(',')[1] ?? '', 'base64')).metadata();
      expect([meta.width, meta.height]).toEqual([tile.width, tile.height]);
      expect(tile.width).toBe(1024);
      expect(tile.height).toBeLessThanOrEqual(1536);
    }
    // The three 700-px images stack to ~2100 px: two tiles, the first full height.
    expect(tiles[0]?.height).toBe(1536);
    const units = out.parts.map((p) => p.unit);
    expect(units).toEqual(units.map((_, i) => i + 1));
  });

  it('splits a long page into numbered sections at its headings', async () => {
    const out = await renderer.render(`${site.origin}/long`);
    const parts = out.parts.flatMap((p) => (p.kind === 'text' ? [p] : []));
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.map((p) => p.unit)).toEqual(parts.map((_, i) => i + 1));
    expect(parts[0]?.text.startsWith(`# Handbook\nURL: ${site.origin}/long`)).toBe(true);
    for (const p of parts.slice(1)) expect(p.text).toMatch(/^## Chapter \d+/);
    expect(text(out)).toContain('## Chapter 40');
  });

  it('follows a redirect chain on the allowed server, and a script redirect', async () => {
    const out = await renderer.render(`${site.origin}/redirect/1`);
    expect(out.finalUrl).toBe(`${site.origin}/redirected-final`);
    expect(text(out)).toContain('Redirect chain fact: lantern 3307');
    const scripted = await renderer.render(`${site.origin}/js-redirect`);
    expect(scripted.finalUrl).toBe(`${site.origin}/redirected-final`);
    expect(text(scripted)).toContain('Redirect chain fact: lantern 3307');
  });
});

describe('webpage renderer: address rules', () => {
  it('lets no request of a hostile page reach the canary, and still reads the page', async () => {
    const before = renderer.proxyCounters?.refused ?? 0;
    const out = await renderer.render(`${site.origin}/attack`);
    expect(text(out)).toContain('Canary page fact: heron 4412');
    expect(out.finalUrl).toBe(`${site.origin}/attack`);
    // img (http, https, bounced), css, iframe, bounced script, fetch by IP and by name,
    // ws, wss, EventSource, beacon, pop-up and meta refresh were all attempted and refused.
    expect((renderer.proxyCounters?.refused ?? 0) - before).toBeGreaterThanOrEqual(10);
    expect(site.canary).toEqual({ connections: 0, requests: 0, upgrades: 0, connects: 0 });
  });

  it('refuses a main document that redirects to a forbidden place', async () => {
    const err = await failure(renderer.render(`${site.origin}/redirect-to-canary`));
    expect(err.code).toBe('SOURCE_FORBIDDEN');
    expect(site.canary.connections).toBe(0);
  });

  it('refuses a main document on a forbidden address', async () => {
    const err = await failure(renderer.render(`${site.canaryOrigin}/direct`));
    expect(err.code).toBe('SOURCE_FORBIDDEN');
    const https = await failure(
      renderer.render(`${site.canaryOrigin.replace('http:', 'https:')}/direct`),
    );
    expect(https.code).toBe('SOURCE_FORBIDDEN');
    expect(site.canary.connections).toBe(0);
  });

  it('maps a host that does not resolve to SOURCE_UNREACHABLE', async () => {
    const err = await failure(renderer.render('http://no-such-host.test/'));
    expect(err.code).toBe('SOURCE_UNREACHABLE');
  });
});

describe('webpage renderer: failures and deadlines', () => {
  it('maps main-document statuses and non-HTML documents to failure codes', async () => {
    const cases: [string, string, boolean][] = [
      ['/status/404', 'SOURCE_UNREACHABLE', false],
      ['/status/410', 'SOURCE_UNREACHABLE', false],
      ['/status/503', 'SOURCE_UNREACHABLE', true],
      ['/status/429', 'SOURCE_UNREACHABLE', true],
      ['/status/401', 'SOURCE_FORBIDDEN', false],
      ['/status/403', 'SOURCE_FORBIDDEN', false],
      ['/file.pdf', 'SOURCE_UNSUPPORTED', false],
      ['/photo.png', 'SOURCE_UNSUPPORTED', false],
      ['/blank', 'SOURCE_UNREADABLE', false],
    ];
    for (const [path, code, retryable] of cases) {
      const err = await failure(renderer.render(`${site.origin}${path}`));
      expect([path, err.code, err.retryable]).toEqual([path, code, retryable]);
    }
    const pdf = await failure(renderer.render(`${site.origin}/file.pdf`));
    expect(pdf.message).toContain('"pdf"');
  });

  it('rejects non-http(s) URLs before starting anything', async () => {
    const err = await failure(renderer.render('file:///etc/passwd'));
    expect(err.code).toBe('SOURCE_UNSUPPORTED');
  });

  it('returns what rendered by the deadline from a page that never finishes loading', async () => {
    const started = Date.now();
    const out = await renderer.render(`${site.origin}/never`);
    expect(Date.now() - started).toBeLessThan(PAGE_TIMEOUT_MS + DEADLINE_SLACK_MS);
    expect(text(out)).toContain('Streaming fact: glacier 2093');
  });

  it('reads a page stuck in an endless script loop within the deadline', async () => {
    const started = Date.now();
    const out = await renderer.render(`${site.origin}/busy`);
    expect(Date.now() - started).toBeLessThan(PAGE_TIMEOUT_MS + DEADLINE_SLACK_MS);
    expect(text(out)).toContain('Busy fact: comet 5150');
  });

  it('reads a page whose timers keep re-entering long busy loops', async () => {
    const started = Date.now();
    const out = await renderer.render(`${site.origin}/busy-timer`);
    expect(Date.now() - started).toBeLessThan(PAGE_TIMEOUT_MS + DEADLINE_SLACK_MS);
    expect(text(out)).toContain('Timer fact: meteor 6021');
  });

  it('times out (retryably) on a server that never answers', async () => {
    const started = Date.now();
    const err = await failure(renderer.render(`http://${silentHostPort}/`));
    expect(Date.now() - started).toBeLessThan(PAGE_TIMEOUT_MS + DEADLINE_SLACK_MS);
    expect([err.code, err.retryable]).toEqual(['TIMEOUT', true]);
  });

  it('stops when the job is cancelled', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('job deleted')), 500);
    await expect(
      renderer.render(`${site.origin}/never`, { signal: controller.signal }),
    ).rejects.toThrow('job deleted');
    expect(Date.now() - started).toBeLessThan(PAGE_TIMEOUT_MS);
  });

  it('still serves pages after all of the above, with the canary untouched', async () => {
    const md = text(await renderer.render(`${site.origin}/tables`));
    expect(md).toContain('| Blue widget | 4 | 12.50 |');
    expect(site.canary).toEqual({ connections: 0, requests: 0, upgrades: 0, connects: 0 });
  });
});

describe('browser host', () => {
  it("launches Chromium with none of the worker's secrets in its environment", async () => {
    const secrets = {
      DATABASE_URL: 'postgres://u:db-secret-7f3a@db/x',
      OPENAI_API_KEY: 'sk-secret-7f3a',
    };
    // In this process's own environment too: a launch that inherited it would carry them.
    const before = {
      DATABASE_URL: process.env.DATABASE_URL,
      OPENAI_API_KEY: process.env.OPENAI_API_KEY,
    };
    Object.assign(process.env, secrets);
    const host = new BrowserHost({
      executablePath: CHROMIUM,
      proxyServer: 'http://127.0.0.1:9',
      environment: process.env,
      maxPagesPerBrowser: 10,
      maxBrowserRssBytes: Number.MAX_SAFE_INTEGER,
      logger: { debug() {}, info() {}, warn() {} },
    });
    try {
      const lease = await host.acquire();
      const session = await lease.browser.newBrowserCDPSession();
      const info = (await session.send('SystemInfo.getProcessInfo')) as {
        processInfo: { id: number }[];
      };
      await session.detach();
      const environs = await Promise.all(
        info.processInfo.map((p) => readFile(`/proc/${p.id}/environ`, 'utf8').catch(() => '')),
      );
      expect(environs.some((e) => e.includes('PATH='))).toBe(true);
      for (const environ of environs) {
        expect(environ).not.toContain('db-secret-7f3a');
        expect(environ).not.toContain('sk-secret-7f3a');
        expect(environ).not.toContain('DATABASE_URL');
      }
      lease.release();
    } finally {
      for (const [name, value] of Object.entries(before))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      await host.close();
    }
  });

  it('replaces the browser after its page budget and after a crash', async () => {
    const host = new BrowserHost({
      executablePath: CHROMIUM,
      proxyServer: 'http://127.0.0.1:9',
      environment: process.env,
      maxPagesPerBrowser: 2,
      maxBrowserRssBytes: Number.MAX_SAFE_INTEGER,
      logger: { debug() {}, info() {}, warn() {} },
    });
    try {
      const a = await host.acquire();
      const b = await host.acquire();
      expect(b.browser).toBe(a.browser);
      expect(await browserRssBytes(a.browser)).toBeGreaterThan(20 * 2 ** 20);
      a.release();
      b.release();
      const c = await host.acquire();
      expect(c.browser).not.toBe(a.browser);
      expect(a.browser.isConnected()).toBe(false);
      await c.browser.close(); // stands in for a crash: the browser disconnects under the host
      c.release();
      const d = await host.acquire();
      expect(d.browser.isConnected()).toBe(true);
      expect(host.launches).toBe(3);
      d.release();
    } finally {
      await host.close();
    }
  });
});
