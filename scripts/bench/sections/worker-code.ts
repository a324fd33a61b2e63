/**
 * Sections 5–7: the worker's own source code (documents, webpages, tokens), each run in a child
 * process, turned into table rows; the webpage child's memory is §8's "during 6".
 */
import { runChild } from '../lib/child.ts';
import type { Plan } from '../lib/plan.ts';
import type { Results } from '../lib/report.ts';
import type { TokenItem } from './tokens.ts';
import type { CitationsResult } from './citations.ts';
import { mergePeaks, type MemoryBySection } from '../lib/memory.ts';

interface DocumentsResult {
  pages: number;
  sizes: Record<string, { width: number; height: number }>;
  imageTarget: { width: number; height: number };
  rates: Record<string, number[]>;
  cpuMsPerPage: Record<string, number[]>;
}

interface WebpagesResult {
  rates: Record<string, number[]>;
  /** CPU ms per page of the bench process and every process below it (Chromium). */
  cpuMsPerPage: Record<string, number[]>;
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
    results.add({
      section: '5',
      measure: `PDF text layer CPU per page, ${d.pages} dense pages`,
      unit: 'CPU ms',
      decimals: 2,
      service: d.cpuMsPerPage['pdf-text'] ?? [],
      baseline: d.cpuMsPerPage.pdftotext ?? [],
      baselineName: '(pdftotext, its process included)',
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
      results.add({
        section: '6',
        measure: `Webpage CPU per page at concurrency ${c} (bench process + Chromium)`,
        unit: 'CPU ms',
        decimals: 0,
        service: w.cpuMsPerPage[`renderer:${c}`] ?? [],
        baseline: w.cpuMsPerPage[`bare:${c}`] ?? [],
        baselineName: '(bare Playwright)',
      });
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
  if (sections.has(10)) {
    log('§10 citations');
    const { result: c } = await runChild<CitationsResult>(
      'scripts/bench/sections/citations.ts',
      ['--reps', String(plan.reps)],
      log,
    );
    addCitationRows(c, results);
  }
}

function addCitationRows(c: CitationsResult, results: Results): void {
  const share = (part: number, whole: number) => [whole === 0 ? 0 : (100 * part) / whole];
  results.addWithTarget(
    {
      section: '10',
      measure: `Leaf values grounded, ${c.leaves} values written in ${c.documents} sources`,
      unit: '%',
      service: share(c.grounded, c.leaves),
    },
    '100%',
    (s) => s === 100,
  );
  results.addWithTarget(
    {
      section: '10',
      measure: `Planted invented values flagged (${c.invented})`,
      unit: '%',
      service: share(c.flagged, c.invented),
    },
    '100%',
    (s) => s === 100,
  );
  results.add({
    section: '10',
    measure: `Box IoU, ${c.ious.length} text-PDF values against where they were drawn (median)`,
    unit: 'IoU',
    decimals: 2,
    service: c.ious,
  });
  const own = c.repeatedIous.filter((v) => v >= 0.5).length;
  results.add({
    section: '10',
    measure: `Box IoU, repeated values: ${c.repeatedIous.length} values of a statement, own cell (mean; ${own} at ≥ 0.5)`,
    unit: 'IoU',
    decimals: 2,
    service: [c.repeatedIous.reduce((a, b) => a + b, 0) / (c.repeatedIous.length || 1)],
  });
  for (const r of c.recall) {
    results.addWithTarget(
      {
        section: '10',
        measure: `Long-array recall, ${r.rows} rows, output limit ${c.outputLimit} tokens (${r.calls} calls${r.inOrder ? ', in order, no duplicates' : ', OUT OF ORDER'}${r.warning ? ', OUTPUT_TRUNCATED' : ''})`,
        unit: '%',
        service: share(r.returned, r.rows),
      },
      '100%',
      (s) => s === 100 && r.inOrder,
    );
  }
  for (const k of c.cost) {
    results.add({
      section: '10',
      measure: `Tokens, ${k.name}, with citations (prompt ${k.with.promptTokens} + answer ${k.with.completionTokens})`,
      unit: 'tokens',
      decimals: 0,
      service: [k.with.tokens],
      baseline: [k.without.tokens],
      baselineName: '(without citations)',
    });
    results.add({
      section: '10',
      measure: `Time, ${k.name}: prepare + model call + citations, with citations`,
      unit: 'ms',
      decimals: 0,
      service: k.with.ms,
      baseline: k.without.ms,
      baselineName: '(without citations)',
    });
  }
  results.note(
    `§10: the worker's code in one process (source preparation, OCR, the model call, continuation, citations); the model stand-in answers at once with the expected values plus one invented value per source, so times leave out the model's own latency and tokens are the stand-in's estimate (4 characters a token, images by OpenAI's formula). Long arrays: the stand-in cuts every answer at ${c.outputLimit} tokens, as a model's output limit would.`,
  );
}
