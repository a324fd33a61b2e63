/**
 * Real saved news, blog and reference pages (the corpus kept beside a checkout; skipped without
 * it) rendered as a webpage source: what reaches the model keeps each page's visible opening.
 */
import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowlist } from '@xt/fetcher';
import { realCorpusDir, startFixtureServer, type FixtureServer } from '@xt/testkit/fixtures';
import { createWebpageRenderer, type WebpageRenderer } from './index.ts';

const PAGES = realCorpusDir('realworld', 'pages');

/** Pages whose description is also shown on the page, as its standfirst or first lines. */
const SHOWN_DESCRIPTION = [
  'daringfireball-1',
  'guardian-1',
  'heise',
  'keep-tabular-data',
  'medium-1',
  'qq',
  'wikipedia',
];
/** Pages whose author line names the byline the metadata gives. */
const SHOWN_BYLINE = ['aktualne', 'guardian-1', 'heise', 'lemonde-1', 'medium-1'];

interface SavedPage {
  excerpt: string;
  byline: string | null;
  /** What reached the model, links reduced to their text and whitespace collapsed. */
  text: string;
}

/** Markdown as a reader's running text: `[a](u)` as `a`, no emphasis marks, single spaces. */
function readerText(md: string): string {
  // Split rather than a pattern: link targets never hold a bare ")" (they are escaped).
  const [first = '', ...rest] = md.split('](');
  const text = first + rest.map((p) => p.slice(p.indexOf(')') + 1)).join('');
  return text.replaceAll('![', '').replaceAll('[', '').replaceAll('**', '').replace(/\s+/g, ' ');
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe.skipIf(PAGES === null)('webpage renderer: real saved pages', () => {
  const pages = new Map<string, SavedPage>();
  let server: FixtureServer;
  let renderer: WebpageRenderer;

  beforeAll(async () => {
    const dir = PAGES ?? '';
    const names = (await readdir(dir)).sort();
    const routes = Object.fromEntries(
      await Promise.all(
        names.map(async (name) => [
          `/${name}/`,
          {
            body: await readFile(`${dir}/${name}/source.html`),
            contentType: 'text/html; charset=utf-8',
          },
        ]),
      ),
    );
    server = await startFixtureServer(routes);
    renderer = createWebpageRenderer({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      allowlist: parseAllowlist(`${server.host}:${server.port}`),
      pageTimeoutMs: 30_000,
      networkIdleMs: 300,
      maxPagesPerBrowser: 100,
      maxHtmlBytes: 10 * 2 ** 20,
      // The saved pages name their publishers' servers: none of them is reached.
      lookup: (host) =>
        Promise.reject(
          Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }),
        ),
    });
    for (const name of names) {
      const meta = JSON.parse(await readFile(`${dir}/${name}/expected-metadata.json`, 'utf8')) as {
        excerpt?: string | null;
        byline?: string | null;
      };
      const out = await renderer.render(`${server.url}/${name}/`);
      const md = out.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n\n');
      pages.set(name, {
        excerpt: collapse((meta.excerpt ?? '').replace(/…$/, '')),
        byline: meta.byline ?? null,
        text: readerText(md),
      });
    }
  }, 300_000);

  afterAll(async () => {
    await renderer?.close();
    await server?.close();
  });

  it('sends the standfirst and byline of an immersive Guardian story, in order, before its body', (ctx) => {
    const page = pages.get('guardian-1');
    if (!page) return ctx.skip();
    const standfirst = page.text.indexOf(page.excerpt);
    const byline = page.text.indexOf(`by ${page.byline ?? ''} (reporting)`);
    const body = page.text.indexOf('Whale whisperer Hori Parata was just seven years old');
    expect(page.excerpt.length).toBeGreaterThan(50);
    expect(
      [standfirst, byline, body].every((i) => i >= 0),
      page.text.slice(0, 2000),
    ).toBe(true);
    expect(standfirst < byline && byline < body).toBe(true);
    // The masthead and menu that share the story's opening block stay out.
    for (const chrome of ['Back to home', 'Search jobs', 'Contribute', 'US politics'])
      expect(page.text).not.toContain(chrome);
  });

  it('sends every description a page shows, and every byline it names', () => {
    const missing: string[] = [];
    for (const name of SHOWN_DESCRIPTION) {
      const page = pages.get(name);
      if (page && !page.text.includes(page.excerpt.slice(0, 60))) missing.push(`${name}: lead`);
    }
    for (const name of SHOWN_BYLINE) {
      const page = pages.get(name);
      if (page?.byline && !page.text.includes(page.byline)) missing.push(`${name}: byline`);
    }
    expect(missing).toEqual([]);
  });
});
