/**
 * Webpage rendering benchmark: `npx tsx scripts/bench-webpage.ts [rounds]`.
 *
 * Serves the renderer's fixture pages on 127.0.0.1 and prints, in one run:
 * - pages/second of the full renderer (proxy, fresh context, settle, Markdown), warm, at
 *   concurrency 1 and 4, next to a bare Playwright `goto` + `content()` of the same pages;
 * - tokens of what is sent to the model against tokens of the raw HTML. No tokenizer is
 *   installed, so text tokens are estimated as characters / 4; screenshot tiles are counted
 *   with gpt-4.1's high-detail image formula;
 * - whether every fact of every page survived into the Markdown (exit code 1 if not).
 */
import { chromium, type Browser } from 'playwright-core';
import { parseAllowlist } from '@xt/fetcher';
import {
  createWebpageRenderer,
  type RenderedWebpage,
} from '../apps/worker/src/sources/webpage/index.ts';
import { startTestSite } from '../apps/worker/src/sources/webpage/test-site.ts';
import { CHROMIUM_ARGS } from '../apps/worker/src/sources/webpage/browser/index.ts';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const rounds = Number(process.argv[2] ?? 5);

const tokens = (chars: number): number => Math.ceil(chars / 4);

/** gpt-4.1 high detail: fit 2048², short side to 768, 170 per 512-px square plus 85. */
function imageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(w, h);
  if (short > 768) {
    w *= 768 / short;
    h *= 768 / short;
  }
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

const failures: string[] = [];

async function timed(
  urls: string[],
  concurrency: number,
  one: (url: string) => Promise<unknown>,
): Promise<number> {
  const queue = [...urls];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        await one(url).catch((err: unknown) => {
          failures.push(
            `${url} (c=${concurrency}): ${err instanceof Error ? err.message : String(err)}`,
          );
        });
      }
    }),
  );
  return urls.length / ((performance.now() - started) / 1000);
}

async function bare(browser: Browser, url: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
    return await page.content();
  } finally {
    await context.close();
  }
}

const site = await startTestSite();
const renderer = createWebpageRenderer({
  executablePath,
  allowlist: parseAllowlist(site.hostPort),
  pageTimeoutMs: 15_000,
  networkIdleMs: 300,
  maxPagesPerBrowser: 1000,
  maxHtmlBytes: 10 * 2 ** 20,
});
const plain = await chromium.launch({
  executablePath,
  args: [...CHROMIUM_ARGS.filter((a) => !a.startsWith('--host-resolver'))],
});

try {
  const content = site.pages.filter((p) => p.content).map((p) => `${site.origin}${p.path}`);
  const workload = Array.from({ length: rounds }, () => content).flat();

  // Warm both browsers and collect the per-page figures from the warm-up renders.
  const rendered = new Map<string, RenderedWebpage>();
  const rawDom = new Map<string, number>();
  for (const page of site.pages) {
    const url = `${site.origin}${page.path}`;
    rendered.set(page.path, await renderer.render(url));
    // The bare browser has no proxy: it only ever sees the harmless content pages.
    if (page.content) rawDom.set(page.path, (await bare(plain, url)).length);
  }

  console.log(
    `Throughput, warm, ${workload.length} renders of ${content.length} content pages (networkIdleMs 300)`,
  );
  const rows: [string, number][] = [];
  for (const concurrency of [1, 4]) {
    rows.push([
      `renderer          c=${concurrency}`,
      await timed(workload, concurrency, (u) => renderer.render(u)),
    ]);
    rows.push([
      `bare goto+content c=${concurrency}`,
      await timed(workload, concurrency, (u) => bare(plain, u)),
    ]);
  }
  for (const [name, rate] of rows) console.log(`  ${name}  ${rate.toFixed(2)} pages/s`);
  console.log(
    '  (the renderer waits for a 300 ms network-quiet window after DOMContentLoaded; bare waits for load only)',
  );

  console.log(
    '\nTokens sent to the model vs raw HTML (text ≈ chars/4; images: gpt-4.1 high-detail formula)',
  );
  console.log('  page              html tok  DOM tok  md tok  img tok  md/html  facts');
  console.log('  (html = served document, DOM = bare content() after load, md = Markdown parts)');
  let missing = 0;
  for (const page of site.pages) {
    const out = rendered.get(page.path);
    if (!out) continue;
    const md = out.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n\n');
    const img = out.parts.reduce(
      (sum, p) => sum + (p.kind === 'image' ? imageTokens(p.width, p.height) : 0),
      0,
    );
    const absent = page.facts.filter((f) => !md.includes(f));
    missing += absent.length;
    const ratio = (tokens(md.length) / Math.max(1, tokens(out.htmlBytes))).toFixed(2);
    console.log(
      `  ${page.path.padEnd(16)} ${String(tokens(out.htmlBytes)).padStart(9)} ${(rawDom.has(page.path) ? String(tokens(rawDom.get(page.path) ?? 0)) : '-').padStart(8)} ${String(tokens(md.length)).padStart(7)} ${String(img).padStart(8)} ${ratio.padStart(8)}  ${page.facts.length - absent.length}/${page.facts.length}${absent.length ? ` MISSING ${JSON.stringify(absent)}` : ''}`,
    );
  }
  console.log(
    `\nCanary: ${JSON.stringify(site.canary)}; proxy: ${JSON.stringify(renderer.proxyCounters)}`,
  );
  console.log(missing === 0 ? 'All facts present.' : `${missing} facts missing.`);
  console.log(
    failures.length === 0 ? 'No failed renders.' : `Failed renders:\n  ${failures.join('\n  ')}`,
  );
  process.exitCode =
    missing === 0 && failures.length === 0 && site.canary.connections === 0 ? 0 : 1;
} finally {
  await plain.close();
  await renderer.close();
  await site.close();
}
