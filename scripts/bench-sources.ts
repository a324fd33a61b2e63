/**
 * PDF and image preparation benchmark: `npx tsx scripts/bench-sources.ts [rounds]`.
 *
 * Generates its fixtures, then prints in one run:
 * - PDF pages/second for the text layer, and for rasterising at the resolution chosen for each
 *   model, beside poppler's `pdftoppm` rendering the same file at the same pixel size;
 * - image normalisations/second (decode, orient, resize, encode) inline and through the
 *   worker-thread pool;
 * - estimated input tokens per page for a text PDF and a scanned PDF (text: characters / 4,
 *   no tokenizer being installed; images: OpenAI's published tile and patch formulas).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PublicModel } from '@xt/contract';
import { mixedPdf, jpegImage, textImagePng } from '@xt/testkit/fixtures';
import { prepareImage, visionTokens } from '../apps/worker/src/sources/image/index.ts';
import {
  openPdf,
  preparePdf,
  renderPage,
  renderSize,
  type PreparedPdf,
} from '../apps/worker/src/sources/pdf/index.ts';
import { createPrepPool } from '../apps/worker/src/prep-pool/index.ts';

const rounds = Number(process.argv[2] ?? 3);
const MODELS: PublicModel[] = ['gpt-4.1', 'gpt-4.1-mini'];
const PAGES = 20;
const LIMITS = { maxPages: 100, maxImagePages: 100, maxImagePixels: 50_000_000 };

function denseText(page: number): string {
  const lines = [`Statement page ${page}. Account 4471-${page}. Period 1 January to 31 March.`];
  for (let i = 1; i <= 42; i++) {
    lines.push(
      `${page}.${i} Item ${1000 + i} delivered to warehouse ${i % 7}, quantity ${i * 3}, unit price ${(i * 1.25).toFixed(2)} EUR, line total ${(i * i * 3.75).toFixed(2)} EUR.`,
    );
  }
  return lines.join('\n');
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Best of `rounds`: the least disturbed run on a shared machine. */
async function best<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  let result = await timed(fn);
  for (let i = 1; i < rounds; i++) {
    const next = await timed(fn);
    if (next.ms < result.ms) result = next;
  }
  return result;
}

const rate = (count: number, ms: number) => (count / (ms / 1000)).toFixed(1);
const tokens = (chars: number) => Math.ceil(chars / 4);

function pdftoppm(
  file: string,
  size: { width: number; height: number },
  format: 'png' | 'jpeg',
): number {
  const out = mkdtempSync(join(tmpdir(), 'bench-ppm-'));
  try {
    const t0 = performance.now();
    execFileSync('/usr/bin/pdftoppm', [
      `-${format}`,
      '-scale-to-x',
      String(size.width),
      '-scale-to-y',
      String(size.height),
      file,
      join(out, 'p'),
    ]);
    const ms = performance.now() - t0;
    if (readdirSync(out).length !== PAGES) throw new Error('pdftoppm did not render every page');
    return ms;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Renders every page to pixels only (no encoding), to separate drawing from compression. */
async function renderOnly(bytes: Buffer, model: PublicModel): Promise<number> {
  const { doc, close } = await openPdf(bytes, { maxImagePixels: LIMITS.maxImagePixels });
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      await renderPage(page, model);
      page.cleanup();
    }
    return doc.numPages;
  } finally {
    await close();
  }
}

function perPageTokens(result: PreparedPdf, model: PublicModel): number {
  let total = 0;
  for (const part of result.parts) {
    total += part.kind === 'text' ? tokens(part.text.length) : visionTokens(model, part);
  }
  return Math.round(total / result.pageCount);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-sources-'));
try {
  console.log(
    `bench-sources: ${rounds} rounds (best shown), ${availableParallelism()} cores, node ${process.version}\n`,
  );
  const textPdf = await mixedPdf(
    Array.from({ length: PAGES }, (_, i) => ({ text: denseText(i + 1) })),
  );
  const scanPdf = await mixedPdf(
    Array.from({ length: PAGES }, (_, i) => ({ scan: denseText(i + 1).slice(0, 900) })),
  );
  const scanFile = join(dir, 'scanned.pdf');
  writeFileSync(scanFile, scanPdf);
  writeFileSync(join(dir, 'text.pdf'), textPdf);

  console.log(
    `PDF, ${PAGES} pages (text: ~${denseText(1).length} chars/page; scanned: 150 dpi page images)`,
  );
  const textLayer = await best(() =>
    preparePdf(textPdf, { model: 'gpt-4.1', mode: 'text', ...LIMITS }),
  );
  console.log(
    `  text layer (auto/text mode)            ${rate(PAGES, textLayer.ms).padStart(7)} pages/s`,
  );
  for (const model of MODELS) {
    const size = renderSize({ width: 612, height: 792 }, model);
    const dpi = ((size.width / 612) * 72).toFixed(0);
    console.log(`  rasterise for ${model} at ${size.width}×${size.height} (~${dpi} dpi):`);
    const draw = await best(() => renderOnly(scanPdf, model));
    const full = await best(() => preparePdf(scanPdf, { model, mode: 'images', ...LIMITS }));
    const ppmPng = Math.min(
      ...Array.from({ length: rounds }, () => pdftoppm(scanFile, size, 'png')),
    );
    const ppmJpeg = Math.min(
      ...Array.from({ length: rounds }, () => pdftoppm(scanFile, size, 'jpeg')),
    );
    console.log(
      `    pdf.js render to pixels              ${rate(PAGES, draw.ms).padStart(7)} pages/s`,
    );
    console.log(
      `    pdf.js render + encode (preparePdf)  ${rate(PAGES, full.ms).padStart(7)} pages/s`,
    );
    console.log(
      `    pdftoppm -png, same size             ${rate(PAGES, ppmPng).padStart(7)} pages/s`,
    );
    console.log(
      `    pdftoppm -jpeg, same size            ${rate(PAGES, ppmJpeg).padStart(7)} pages/s`,
    );
  }

  console.log('\nEstimated input tokens per page (text: chars/4; images: OpenAI formulas)');
  for (const model of MODELS) {
    const text = await preparePdf(textPdf, { model, mode: 'auto', ...LIMITS });
    const scan = await preparePdf(scanPdf, { model, mode: 'auto', ...LIMITS });
    const image = scan.parts.find((p) => p.kind === 'image');
    const bytesPerPage = Math.round(
      scan.parts.reduce((n, p) => n + (p.kind === 'image' ? p.dataUrl.length : 0), 0) /
        scan.pageCount /
        1024,
    );
    console.log(
      `  ${model.padEnd(13)} text PDF ${String(perPageTokens(text, model)).padStart(5)}   scanned PDF ${String(perPageTokens(scan, model)).padStart(5)}` +
        `   (page image ${image?.kind === 'image' ? `${image.width}×${image.height}` : '-'}, ~${bytesPerPage} KiB base64/page)`,
    );
  }

  console.log('\nImage normalisation (decode, EXIF, resize to the model size, encode)');
  const photo = await jpegImage({ width: 4000, height: 3000 });
  const screenshot = await textImagePng(denseText(1).split('\n'), {
    width: 1600,
    height: 2200,
    fontSize: 22,
  });
  const N = 10;
  for (const [name, bytes] of [
    ['12 MP JPEG photo', photo],
    ['1600×2200 text PNG', screenshot],
  ] as const) {
    for (const model of MODELS) {
      const inline = await best(async () => {
        for (let i = 0; i < N; i++) await prepareImage(bytes, { model, maxPixels: 50_000_000 });
      });
      console.log(
        `  ${name.padEnd(19)} ${model.padEnd(13)} inline ${rate(N, inline.ms).padStart(6)} images/s`,
      );
    }
  }
  const pool = createPrepPool({ taskTimeoutMs: 60_000 });
  try {
    const run = () =>
      Promise.all(
        Array.from({ length: N }, () =>
          pool.runPrep({
            kind: 'image',
            bytes: Buffer.from(photo),
            opts: { model: 'gpt-4.1', maxPixels: 50_000_000 },
          }),
        ),
      );
    await run(); // start the threads and load their modules
    const pooled = await best(run);
    console.log(
      `  12 MP JPEG photo    gpt-4.1       pool of ${pool.stats.threads} ${rate(N, pooled.ms).padStart(6)} images/s (transfer + thread hop included)`,
    );
  } finally {
    await pool.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
