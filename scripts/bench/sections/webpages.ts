/**
 * 6. Webpages (run as a child process): pages per second of the worker's renderer at
 * concurrency 1 and 4 beside bare Playwright with the same quiet-network rule, on the local
 * corpus, both browsers warm. Prints `RESULT {…}`.
 *
 *   npx tsx scripts/bench/sections/webpages.ts --rounds 2 --per-round 2
 */
import { parseArgs } from 'node:util';
import { CORPUS_PAGES, startCorpusServer } from '../corpus/pages.ts';
import { bareRender, launchBare } from '../lib/chromium.ts';
import { emitResult, progress } from '../lib/child.ts';
import { cpuMs, processTree } from '../lib/proc.ts';
import { NETWORK_IDLE_MS, workerRenderer } from '../lib/renderer.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    // Each round renders every page this many times, so a round lasts long enough to time.
    'per-round': { type: 'string', default: '2' },
  },
});
const rounds = Number(values.rounds);
const PER_ROUND = Number(values['per-round']);

const site = await startCorpusServer();
const renderer = workerRenderer(site.hostPort);
const bare = await launchBare();
const failures: string[] = [];

async function pagesPerSecond(concurrency: number, one: (url: string) => Promise<unknown>) {
  const queue = Array.from({ length: PER_ROUND }, () =>
    CORPUS_PAGES.map((p) => `${site.origin}${p.path}`),
  ).flat();
  const total = queue.length;
  // Both browsers are below this process; the idle one adds next to nothing meanwhile.
  const cpuBefore = cpuMs(processTree([process.pid]));
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        await one(url).catch((error: unknown) => failures.push(`${url}: ${String(error)}`));
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return {
    rate: total / seconds,
    cpuMsPerPage: (cpuMs(processTree([process.pid])) - cpuBefore) / total,
  };
}

const rates: Record<string, number[]> = {};
const cpuMsPerPage: Record<string, number[]> = {};
try {
  for (const p of CORPUS_PAGES) {
    await renderer.render(`${site.origin}${p.path}`);
    await bareRender(bare, `${site.origin}${p.path}`, NETWORK_IDLE_MS);
  }
  for (let round = 1; round <= rounds; round++) {
    for (const concurrency of [1, 4]) {
      const order = round % 2 ? ['renderer', 'bare'] : ['bare', 'renderer'];
      for (const which of order) {
        progress(`§6 round ${round}: ${which}, concurrency ${concurrency}`);
        const run = await pagesPerSecond(concurrency, (url) =>
          which === 'renderer' ? renderer.render(url) : bareRender(bare, url, NETWORK_IDLE_MS),
        );
        (rates[`${which}:${concurrency}`] ??= []).push(run.rate);
        (cpuMsPerPage[`${which}:${concurrency}`] ??= []).push(run.cpuMsPerPage);
      }
    }
  }
  emitResult({
    rates,
    cpuMsPerPage,
    failures,
    quietMs: NETWORK_IDLE_MS,
    pages: CORPUS_PAGES.length * PER_ROUND,
  });
} finally {
  await bare.close();
  await renderer.close();
  await site.close();
}
