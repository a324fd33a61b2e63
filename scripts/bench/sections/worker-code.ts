/**
 * Sections 5–7: the worker's own source code (documents, webpages, tokens), each run in a child
 * process, turned into table rows; the webpage child's memory is §8's "during 6".
 */
import { runChild } from '../lib/child.ts';
import type { Plan } from '../lib/plan.ts';
import type { Results } from '../lib/report.ts';
import type { TokenItem } from './tokens.ts';
import { mergePeaks, type MemoryBySection } from '../lib/memory.ts';

interface DocumentsResult {
  pages: number;
  sizes: Record<string, { width: number; height: number }>;
  imageTarget: { width: number; height: number };
  rates: Record<string, number[]>;
}

interface WebpagesResult {
  rates: Record<string, number[]>;
  failures: string[];
  quietMs: number;
  pages: number;
}

export async function runWorkerCode(
  plan: Plan,
  sections: ReadonlySet<number>,
  results: Results,
  log: (line: string) => void,
  memory: MemoryBySection,
  uploads: () => Promise<void>,
): Promise<void> {
  if (sections.has(5)) {
    log('§5 documents');
    const { result: d } = await runChild<DocumentsResult>(
      'scripts/bench/sections/documents.ts',
      [
        '--rounds',
        String(plan.documents.rounds),
        '--pages',
        String(plan.documents.pdfPages),
        '--images',
        String(plan.documents.images),
      ],
      log,
    );
    const r = (key: string) => d.rates[key] ?? [];
    results.add({
      section: '5',
      measure: `PDF text layer, ${d.pages} dense pages`,
      unit: 'pages/s',
      service: r('pdf-text'),
      baseline: r('pdftotext'),
      baselineName: '(pdftotext)',
    });
    for (const [model, size] of Object.entries(d.sizes)) {
      results.add({
        section: '5',
        measure: `PDF rasterise + encode for ${model} (${size.width}×${size.height}), scanned pages`,
        unit: 'pages/s',
        service: r(`pdf-raster:${model}`),
        baseline: r(`pdftoppm:${model}`),
        baselineName: '(pdftoppm -png)',
      });
    }
    results.add({
      section: '5',
      measure: `12 MP JPEG normalised to ${d.imageTarget.width}×${d.imageTarget.height}`,
      unit: 'images/s',
      service: r('image'),
      baseline: r('sharp'),
      baselineName: '(bare sharp resize + JPEG)',
    });
    await uploads();
  }
  if (sections.has(6)) {
    log('§6 webpages');
    const { result: w, memory: peaks } = await runChild<WebpagesResult>(
      'scripts/bench/sections/webpages.ts',
      ['--rounds', String(plan.webpages.rounds), '--per-round', String(plan.webpages.perRound)],
      log,
    );
    mergePeaks(memory, '6', peaks);
    for (const c of [1, 4]) {
      const service = (w.rates[`renderer:${c}`] ?? []).map((rate) => 1000 / rate);
      const baseline = (w.rates[`bare:${c}`] ?? []).map((rate) => 1000 / rate);
      results.add({
        section: '6',
        measure: `Webpages at concurrency ${c}`,
        unit: 'pages/s',
        decimals: 2,
        service: w.rates[`renderer:${c}`] ?? [],
        baseline: w.rates[`bare:${c}`] ?? [],
        baselineName: '(bare Playwright)',
      });
      results.addWithTarget(
        {
          section: '6',
          measure: `Webpage time per page at concurrency ${c}`,
          unit: 'ms',
          decimals: 0,
          service,
          baseline,
          baselineName: '(bare Playwright)',
        },
        '≤ 1.25× bare',
        (s, b) => s <= 1.25 * b,
      );
    }
    if (w.failures.length > 0)
      results.note(`§6 failed renders: ${w.failures.slice(0, 5).join('; ')}`);
    results.note(
      `§6: ${w.pages} renders per measurement of the local corpus (article, product, table), both waiting for ${w.quietMs} ms of network quiet after DOMContentLoaded; fresh browser context per page.`,
    );
  }
  if (sections.has(7)) {
    log('§7 tokens');
    const { result: t } = await runChild<{ items: TokenItem[]; model: string }>(
      'scripts/bench/sections/tokens.ts',
      [],
      log,
    );
    for (const item of t.items) {
      const share = `${item.present}/${item.facts} facts`;
      const row = {
        section: '7',
        measure: `Tokens sent, ${item.name} (${share}${item.missing.length ? `; missing ${item.missing.join(', ')}` : ''})`,
        unit: 'tokens',
        decimals: 0,
        service: [item.sentTokens],
        baseline: [item.naiveTokens],
        baselineName: item.kind === 'webpage' ? '(raw HTML)' : '(pages as 200 dpi images)',
      };
      if (item.kind === 'webpage') {
        results.addWithTarget(
          row,
          '≤ 20% of raw HTML, all facts',
          (s, b) => s <= 0.2 * b && item.present === item.facts,
        );
      } else {
        results.addWithTarget(row, 'all facts', () => item.present === item.facts);
      }
    }
    results.note(
      `§7: text tokens counted with o200k_base (${t.model}'s encoding, gpt-tokenizer); images with OpenAI's published formula for ${t.model}. Only the source's parts are counted, not the instructions and schema that go with every request.`,
    );
  }
}
