/**
 * 5. Documents (run as a child process): PDF pages per second through the worker's own code
 * (text layer; rasterising at the size each model needs) beside poppler's pdftotext and
 * pdftoppm on the same files, and 12-megapixel image normalisations per second beside a bare
 * sharp resize to the same size. Prints `RESULT {…}` with one array of rates per figure.
 *
 *   npx tsx scripts/bench/sections/documents.ts --rounds 3 --pages 20 --images 10
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { PublicModel } from '@xt/contract';
import { jpegImage, mixedPdf } from '@xt/testkit/fixtures';
import { prepareImage, visionSize, preparePdf, renderSize } from '@xt/sources';
import { emitResult, progress, timed } from '../lib/child.ts';
import { cpuMs } from '../lib/proc.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    pages: { type: 'string', default: '20' },
    images: { type: 'string', default: '10' },
  },
});
const rounds = Number(values.rounds);
const PAGES = Number(values.pages);
const IMAGES = Number(values.images);
const MODELS: PublicModel[] = ['gpt-4.1', 'gpt-4.1-mini'];
const LIMITS = { maxPages: 1000, maxImagePages: 100, maxImagePixels: 50_000_000 };

function denseText(page: number): string {
  const lines = [`Statement page ${page}. Account 4471-${page}. Period 1 January to 31 March.`];
  for (let i = 1; i <= 42; i++) {
    lines.push(
      `${page}.${i} Item ${1000 + i} delivered to warehouse ${i % 7}, quantity ${i * 3}, unit price ${(i * 1.25).toFixed(2)} EUR.`,
    );
  }
  return lines.join('\n');
}

const rate = (count: number, ms: number) => count / (ms / 1000);
const results: Record<string, number[]> = {};
const push = (key: string, value: number) => (results[key] ??= []).push(value);
/**
 * CPU ms per page: this process's own time plus its reaped children's (pdftotext), so the
 * figure does not depend on how many other processes wait for the cores.
 */
const cpu: Record<string, number[]> = {};
async function cpuPerPage(key: string, pages: number, run: () => Promise<void> | void) {
  const before = cpuMs([process.pid]);
  await run();
  (cpu[key] ??= []).push((cpuMs([process.pid]) - before) / pages);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-documents-'));
try {
  const textPdf = await mixedPdf(
    Array.from({ length: PAGES }, (_, i) => ({ text: denseText(i + 1) })),
  );
  const scanPdf = await mixedPdf(
    Array.from({ length: PAGES }, (_, i) => ({ scan: denseText(i + 1).slice(0, 900) })),
  );
  const textFile = join(dir, 'text.pdf');
  const scanFile = join(dir, 'scanned.pdf');
  writeFileSync(textFile, textPdf);
  writeFileSync(scanFile, scanPdf);
  const photo = await jpegImage({ width: 4000, height: 3000 });

  // One untimed pass loads pdf.js, sharp and the fonts, as a warm worker has them.
  await preparePdf(textPdf, { model: 'gpt-4.1', mode: 'text', ...LIMITS });
  await prepareImage(photo, { model: 'gpt-4.1', maxPixels: 50_000_000 });

  for (let round = 1; round <= rounds; round++) {
    progress(`§5 round ${round}: PDF text layer`);
    push(
      'pdf-text',
      rate(
        PAGES,
        await timed(() => preparePdf(textPdf, { model: 'gpt-4.1', mode: 'text', ...LIMITS })),
      ),
    );
    push(
      'pdftotext',
      rate(
        PAGES,
        await timed(() => execFileSync('/usr/bin/pdftotext', ['-layout', textFile, '-'])),
      ),
    );
    // The same work again for CPU time alone: /proc counts in 10 ms ticks, so each figure is
    // taken over ten documents.
    await cpuPerPage('pdf-text', 10 * PAGES, async () => {
      for (let i = 0; i < 10; i++)
        await preparePdf(textPdf, { model: 'gpt-4.1', mode: 'text', ...LIMITS });
    });
    await cpuPerPage('pdftotext', 10 * PAGES, () => {
      for (let i = 0; i < 10; i++)
        execFileSync('/usr/bin/pdftotext', ['-layout', textFile, '-'], { stdio: 'ignore' });
    });
    for (const model of MODELS) {
      progress(`§5 round ${round}: rasterise for ${model}`);
      const size = renderSize({ width: 612, height: 792 }, model);
      push(
        `pdf-raster:${model}`,
        rate(PAGES, await timed(() => preparePdf(scanPdf, { model, mode: 'images', ...LIMITS }))),
      );
      const out = mkdtempSync(join(dir, 'ppm-'));
      const ms = await timed(() =>
        execFileSync('/usr/bin/pdftoppm', [
          '-png',
          '-scale-to-x',
          String(size.width),
          '-scale-to-y',
          String(size.height),
          scanFile,
          join(out, 'p'),
        ]),
      );
      if (readdirSync(out).length !== PAGES) throw new Error('pdftoppm did not render every page');
      rmSync(out, { recursive: true });
      push(`pdftoppm:${model}`, rate(PAGES, ms));
    }
    progress(`§5 round ${round}: 12 MP images`);
    push(
      'image',
      rate(
        IMAGES,
        await timed(async () => {
          for (let i = 0; i < IMAGES; i++)
            await prepareImage(photo, { model: 'gpt-4.1', maxPixels: 50_000_000 });
        }),
      ),
    );
    const target = visionSize('gpt-4.1', { width: 4000, height: 3000 });
    push(
      'sharp',
      rate(
        IMAGES,
        await timed(async () => {
          for (let i = 0; i < IMAGES; i++) {
            await sharp(photo)
              .rotate()
              .resize(target.width, target.height, { fit: 'fill' })
              .jpeg({ quality: 85 })
              .toBuffer();
          }
        }),
      ),
    );
  }
  emitResult({
    pages: PAGES,
    sizes: Object.fromEntries(MODELS.map((m) => [m, renderSize({ width: 612, height: 792 }, m)])),
    imageTarget: visionSize('gpt-4.1', { width: 4000, height: 3000 }),
    rates: results,
    cpuMsPerPage: cpu,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
