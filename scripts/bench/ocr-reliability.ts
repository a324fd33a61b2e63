/**
 * How often a value cited as found on a scan is right, by its confidence: the reliability table
 * of docs/citations.md ("OCR readings"). Every scan of a data set (datasets/invoices-scanned by
 * default) is prepared as the worker prepares an image with citations (the model's image, and
 * Tesseract's lines and word confidences for grounding), answered by the model stand-in in oracle
 * mode (which answers from what it was sent: the text its own Tesseract reads in the image, at
 * the size the model sees it), grounded, and each cited value compared with the expected one.
 * The oracle's misreads are a model's misreads here: values the page does not say, some of
 * which the service's own OCR reads the same way and finds.
 *
 * `--scale 0.5` reads every scan shrunk to half its size first (a coarser scan, more misreads):
 * the data set's scans read almost perfectly, which leaves the lower bands nearly empty.
 *
 *   npx tsx --conditions=@xt/source scripts/bench/ocr-reliability.ts [--dataset datasets/invoices-scanned] [--scale 1] [--verbose]
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Citation, PublicModel, Structure } from '@xt/contract';
import { groundOutput, leaves } from '@xt/grounding';
import { createModelClient, extract } from '@xt/model';
import { scoreOutput } from '@xt/sdk/eval';
import { prepareImage } from '@xt/sources';
import { startModelStandIn } from '@xt/testkit/model-stand-in';
import sharp from 'sharp';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'datasets/invoices-scanned' },
    /** Also list every value found wrong, and every value not found, on stderr. */
    verbose: { type: 'boolean', default: false },
    scale: { type: 'string', default: '1' },
  },
});
const DATASET = values.dataset;
const SCALE = Number(values.scale);
if (!(SCALE > 0 && SCALE <= 1))
  throw new Error(`--scale takes a number in (0, 1], got ${values.scale}`);
const MODEL: PublicModel = 'gpt-4.1';
/** Confidence bands, `[from, to)`; the last includes 1. */
const BANDS: [number, number][] = [
  [0, 0.5],
  [0.5, 0.8],
  [0.8, 0.9],
  [0.9, 1],
];

interface Judged {
  citation: Citation;
  right: boolean;
}

const schema = JSON.parse(await readFile(path.join(DATASET, 'schema.json'), 'utf8')) as {
  structure: Structure;
};
const cases = (await readdir(path.join(DATASET, 'cases'))).sort();
const standIn = await startModelStandIn({ defaultBehaviour: { oracle: true } });
const client = createModelClient({
  apiKey: 'bench',
  baseURL: standIn.url,
  modelMap: {},
  timeoutMs: 120_000,
  maxRetries: 0,
});

const judged: Judged[] = [];
try {
  for (const file of cases) {
    const name = path.parse(file).name;
    const expected = JSON.parse(
      await readFile(path.join(DATASET, 'expected', `${name}.json`), 'utf8'),
    ) as unknown;
    const source = await prepareImage(await scan(path.join(DATASET, 'cases', file)), {
      model: MODEL,
      maxPixels: 50_000_000,
      ocr: { timeoutMs: 120_000 },
    });
    const result = await extract({
      client,
      model: MODEL,
      structure: schema.structure,
      source,
      citations: true,
    });
    const { citations } = groundOutput(result, source, true);
    const rightAt = rightness(expected, result.output);
    for (const [pointer, citation] of Object.entries(citations ?? {})) {
      const right = rightAt.get(pointer) ?? false;
      judged.push({ citation, right });
      if (values.verbose && citation.grounded !== right)
        process.stderr.write(
          `  ${name} ${pointer} ${citation.grounded ? 'found, wrong' : 'not found, right'}: ${JSON.stringify(valueAt(result.output, pointer))} quote ${JSON.stringify(citation.quote)} confidence ${citation.confidence}\n`,
        );
    }
    process.stderr.write(`${name}: ${Object.keys(citations ?? {}).length} values\n`);
  }
} finally {
  await standIn.close();
}

console.log(report(judged));

/**
 * Whether each leaf of the output is the expected value: the output's list items paired with the
 * expected ones they agree with most (a dropped or invented row does not shift the rest), each
 * leaf compared as `xt eval` compares it.
 */
function rightness(expected: unknown, output: unknown): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const walk = (e: unknown, o: unknown, pointer: string) => {
    if (Array.isArray(o)) {
      const items = Array.isArray(e) ? e : [];
      const used = new Set<number>();
      o.forEach((item, j) => {
        let best = -1;
        let bestScore = 0;
        items.forEach((candidate, i) => {
          if (used.has(i)) return;
          const score = scoreOutput(candidate, item).leaves.filter((l) => l.matched).length;
          if (score > bestScore) [best, bestScore] = [i, score];
        });
        if (best >= 0) used.add(best);
        walk(best >= 0 ? items[best] : undefined, item, `${pointer}/${j}`);
      });
    } else if (o !== null && typeof o === 'object') {
      const obj = (e !== null && typeof e === 'object' ? e : {}) as Record<string, unknown>;
      for (const [key, value] of Object.entries(o))
        walk(obj[key], value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    } else
      out.set(pointer || '/', e !== undefined && scoreOutput(e, o).leaves[0]?.matched === true);
  };
  walk(expected, output, '');
  // Every leaf has its verdict; `leaves` names them as citations do.
  for (const { pointer } of leaves(output)) if (!out.has(pointer)) out.set(pointer, false);
  return out;
}

/** A case's scan, shrunk by `--scale`. */
async function scan(file: string): Promise<Buffer> {
  const bytes = await readFile(file);
  if (SCALE === 1) return bytes;
  const { width = 0 } = await sharp(bytes).metadata();
  return sharp(bytes)
    .resize(Math.round(width * SCALE))
    .jpeg({ quality: 85 })
    .toBuffer();
}

function valueAt(output: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], output);
}

function report(all: Judged[]): string {
  const found = all.filter((j) => j.citation.grounded);
  const share = (js: Judged[]) =>
    js.length === 0 ? '—' : `${((100 * js.filter((j) => j.right).length) / js.length).toFixed(1)}%`;
  const row = (label: string, js: Judged[]) =>
    `| ${label} | ${js.length} | ${js.filter((j) => j.right).length} | ${share(js)} |`;
  const inBand = ([from, to]: [number, number], c: number | null) =>
    c !== null && c >= from && (c < to || (to === 1 && c <= 1));
  const lines = [
    `${cases.length} scans of ${DATASET}${SCALE === 1 ? '' : ` at ${SCALE}× their size`}, ${all.length} values cited, ${found.length} found.`,
    '',
    '| Found values, by `confidence` | Values | Right | Share right |',
    '| --- | ---: | ---: | ---: |',
    ...BANDS.map((band) =>
      row(
        `${band[0]}–${band[1]}`,
        found.filter((j) => inBand(band, j.citation.confidence)),
      ),
    ),
    row(
      'no figure',
      found.filter((j) => j.citation.confidence === null),
    ),
    row('all found', found),
    row(
      '`reading: "uncertain"`',
      found.filter((j) => j.citation.reading === 'uncertain'),
    ),
    row(
      'found, reading not uncertain',
      found.filter((j) => j.citation.reading !== 'uncertain'),
    ),
    row(
      'not found',
      all.filter((j) => !j.citation.grounded),
    ),
  ];
  return lines.join('\n');
}
