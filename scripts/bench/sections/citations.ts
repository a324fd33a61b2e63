/**
 * 10. Citations (run as a child process): the worker's own path for grounded output (source
 * preparation with the source kept as read, OCR for scans, the model call with quotes and
 * log-probabilities, continuation of cut answers, citations) on a generated corpus where every
 * expected value is written in its source. The model is the stand-in, answering at once with
 * the expected values (plus planted invented ones), so the figures measure the service, not a
 * model: share grounded, share of inventions flagged, box IoU against where text was drawn (also
 * for a statement whose rows repeat their values), long-array recall through continuation, and what citations add in tokens and time.
 * Prints `RESULT`.
 */
import type { Citation, PreparedSource, PublicModel, Structure } from '@xt/contract';
import { createModelClient, extract, type ModelClient } from '@xt/model';
import { groundOutput } from '@xt/grounding';
import { preparePdf, prepareTextBytes } from '@xt/sources';
import {
  placedTextPdf,
  scannedPdf,
  STATEMENT_COLUMNS,
  STATEMENT_ROWS,
  statementPdf,
  STATEMENT_STRUCTURE,
} from '@xt/testkit/fixtures';
import { startModelStandIn, type Behaviour } from '@xt/testkit/model-stand-in';
import { emitResult, progress } from '../lib/child.ts';
import { median } from '../lib/stats.ts';

const MODEL: PublicModel = 'gpt-4.1';
const REPS = Number(process.argv[process.argv.indexOf('--reps') + 1] ?? 3) || 3;
/** Output limit the stand-in enforces in the long-array runs, in tokens. */
const OUTPUT_LIMIT = 4_096;

const invoice: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true },
    date: { type: 'string' },
    customer: { type: 'string' },
    total: { type: 'number' },
    currency: { type: 'string' },
    note: { type: 'string' },
  },
};

export interface CitationsResult {
  documents: number;
  leaves: number;
  grounded: number;
  invented: number;
  flagged: number;
  ious: number[];
  /** Box IoU of each value of a statement whose rows repeat values, against its own cell. */
  repeatedIous: number[];
  recall: { rows: number; returned: number; inOrder: boolean; calls: number; warning: boolean }[];
  outputLimit: number;
  cost: {
    name: string;
    without: { tokens: number; promptTokens: number; completionTokens: number; ms: number[] };
    with: { tokens: number; promptTokens: number; completionTokens: number; ms: number[] };
  }[];
}

const standIn = await startModelStandIn();
let calls = { prompt: 0, completion: 0 };
const client: ModelClient = createModelClient({
  apiKey: 'bench',
  baseURL: standIn.url,
  modelMap: {},
  timeoutMs: 60_000,
  maxRetries: 0,
  onCall: (call) => {
    calls.prompt += call.promptTokens;
    calls.completion += call.completionTokens;
  },
});

const pdfOptions = (citations: boolean) => ({
  model: MODEL,
  mode: 'auto' as const,
  maxPages: 100,
  maxImagePages: 100,
  maxImagePixels: 50_000_000,
  grounding: citations,
  ...(citations ? { ocr: { timeoutMs: 60_000 } } : {}),
});

async function run(
  source: PreparedSource,
  structure: Structure,
  behaviour: Behaviour,
  citations: boolean,
) {
  standIn.setDefaultBehaviour(behaviour);
  const result = await extract({ client, model: MODEL, structure, source, citations });
  return { result, grounded: groundOutput(result, source, citations) };
}

function iou(a: readonly number[], b: readonly number[]): number {
  const [ax0 = 0, ay0 = 0, ax1 = 0, ay1 = 0] = a;
  const [bx0 = 0, by0 = 0, bx1 = 0, by1 = 0] = b;
  const w = Math.max(0, Math.min(ax1, bx1) - Math.max(ax0, bx0));
  const h = Math.max(0, Math.min(ay1, by1) - Math.max(ay0, by0));
  const inter = w * h;
  return inter / ((ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter);
}

const out: CitationsResult = {
  documents: 0,
  leaves: 0,
  grounded: 0,
  invented: 0,
  flagged: 0,
  ious: [],
  repeatedIous: [],
  recall: [],
  outputLimit: OUTPUT_LIMIT,
  cost: [],
};

/** One planted value per document the source never contains; the rest are all written there. */
function tally(citations: Record<string, Citation> | null, inventedAt: string) {
  for (const [pointer, c] of Object.entries(citations ?? {})) {
    if (pointer === inventedAt) {
      out.invented += 1;
      if (!c.grounded) out.flagged += 1;
    } else {
      out.leaves += 1;
      if (c.grounded) out.grounded += 1;
    }
  }
}

// Text PDFs with values drawn at known places, over three pages.
const customers = [
  'Ada Lovelace',
  'Grace Hopper',
  'Alan Turing',
  'Edsger Dijkstra',
  'Barbara Liskov',
];
for (let d = 0; d < 10; d++) {
  progress(`§10 text PDF ${d + 1}`);
  const number = `INV-${2048 + d}`;
  const date = `2026-0${(d % 9) + 1}-1${d % 10}`;
  const customer = customers[d % customers.length] as string;
  const total = 1234.5 + d * 111;
  const totalText = total.toLocaleString('en-US', { minimumFractionDigits: 2 });
  const placed = await placedTextPdf([
    [
      { text: 'ACME Supplies Ltd', x: 72, y: 720, size: 16 },
      { text: 'Invoice number', x: 72, y: 680 },
      { text: number, x: 72, y: 664 },
      { text: 'Date', x: 320, y: 680 },
      { text: date, x: 320, y: 664 },
    ],
    [
      { text: 'Bill to', x: 72, y: 700 },
      { text: customer, x: 72 + d * 8, y: 684 },
    ],
    [
      { text: 'Total due', x: 320, y: 220, size: 14 },
      { text: totalText, x: 320, y: 200, size: 14 },
      { text: 'EUR', x: 320 + d * 4, y: 180 },
    ],
  ]);
  const source = await preparePdf(placed.pdf, pdfOptions(true));
  const expected = { number, date, customer, total, currency: 'EUR', note: null };
  const { grounded } = await run(
    source,
    invoice,
    {
      output: expected,
      invent: [{ pointer: '/note', value: 'Paid by card', quote: 'Paid by card' }],
    },
    true,
  );
  out.documents += 1;
  tally(grounded.citations, '/note');
  const at: Record<string, [number, number]> = {
    '/number': [0, 2],
    '/date': [0, 4],
    '/customer': [1, 1],
    '/total': [2, 1],
    '/currency': [2, 2],
  };
  for (const [pointer, [page, line]] of Object.entries(at)) {
    const box = grounded.citations?.[pointer]?.boxes[0];
    const rect = placed.rects[page]?.[line];
    out.ious.push(box && rect ? iou(box, rect) : 0);
  }
}

// A statement whose rows repeat amounts, descriptions and dates: each value against its own cell.
{
  progress('§10 repeated values');
  const { pdf, rects } = await statementPdf();
  const source = await preparePdf(pdf, pdfOptions(true));
  const { grounded } = await run(
    source,
    STATEMENT_STRUCTURE,
    { output: { rows: STATEMENT_ROWS } },
    true,
  );
  STATEMENT_ROWS.forEach((_, r) => {
    STATEMENT_COLUMNS.forEach((field, k) => {
      const box = grounded.citations?.[`/rows/${r}/${field}`]?.boxes[0];
      const rect = rects[r]?.[k];
      out.repeatedIous.push(box && rect ? iou(box, rect) : 0);
    });
  });
}

// Typed text sources, values in running prose and in a table.
for (let d = 0; d < 10; d++) {
  progress(`§10 text ${d + 1}`);
  const customer = customers[d % customers.length] as string;
  const text = `Invoice INV-${900 + d}, issued 14 March 2026 to ${customer}.\nAmount due: ${(98765.4 + d).toLocaleString('de-DE', { minimumFractionDigits: 2 })} EUR\n`;
  const source = prepareTextBytes(Buffer.from(text), null, () => '', true);
  const expected = {
    number: `INV-${900 + d}`,
    date: '2026-03-14',
    customer,
    total: 98765.4 + d,
    currency: 'EUR',
    note: null,
  };
  const { grounded } = await run(
    source,
    invoice,
    { output: expected, invent: [{ pointer: '/note', value: 'Net 30 days' }] },
    true,
  );
  out.documents += 1;
  tally(grounded.citations, '/note');
}

// Long arrays: every row back, in order, through continuation.
const table: Structure = {
  type: 'object',
  properties: {
    title: { type: 'string', required: true },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', required: true },
          amount: { type: 'number', required: true },
        },
      },
    },
  },
};
for (const rows of [100, 500, 2_000]) {
  progress(`§10 ${rows} rows`);
  const ids = Array.from({ length: rows }, (_, i) => `R${String(i + 1).padStart(5, '0')}`);
  const text = ['Statement of rows', ...ids.map((id, i) => `${id} ${i + 1}`)].join('\n');
  const source = prepareTextBytes(Buffer.from(text), null, () => '', true);
  const before = standIn.requests.length;
  const { result, grounded } = await run(
    source,
    table,
    {
      output: { title: 'Statement of rows', rows: ids.map((id, i) => ({ id, amount: i + 1 })) },
      outputLimit: OUTPUT_LIMIT,
    },
    true,
  );
  const got = (result.output as { rows: { id: string }[] }).rows.map((r) => r.id);
  const present = new Set(ids);
  out.recall.push({
    rows,
    returned: got.filter((id) => present.has(id)).length,
    inOrder: got.every((id, i) => id === ids[i]) && new Set(got).size === got.length,
    calls: standIn.requests.length - before,
    warning: (grounded.warnings ?? []).some((w) => w.code === 'OUTPUT_TRUNCATED'),
  });
}

// What citations add: the same extraction with and without them.
const costCases: { name: string; pdf: Buffer; output: unknown }[] = [
  {
    name: 'text PDF (3 pages)',
    pdf: (
      await placedTextPdf([
        [
          { text: 'Invoice number', x: 72, y: 680 },
          { text: 'INV-7001', x: 72, y: 664 },
        ],
        [{ text: 'Bill to Ada Lovelace', x: 72, y: 684 }],
        [{ text: 'Total due 4,321.00 EUR', x: 320, y: 200 }],
      ])
    ).pdf,
    output: {
      number: 'INV-7001',
      date: null,
      customer: 'Ada Lovelace',
      total: 4321,
      currency: 'EUR',
      note: null,
    },
  },
  {
    name: 'scanned page',
    pdf: await scannedPdf([
      'Invoice number INV-7002\nBill to Grace Hopper\nTotal due 1,234.50 EUR\nThank you for your order.',
    ]),
    output: {
      number: 'INV-7002',
      date: null,
      customer: 'Grace Hopper',
      total: 1234.5,
      currency: 'EUR',
      note: null,
    },
  },
];
for (const { name, pdf, output } of costCases) {
  const measure = async (citations: boolean) => {
    const ms: number[] = [];
    let usage = { prompt: 0, completion: 0 };
    for (let rep = 0; rep < REPS; rep++) {
      progress(`§10 cost: ${name}, ${citations ? 'with' : 'without'} citations`);
      calls = { prompt: 0, completion: 0 };
      const started = performance.now();
      const source = await preparePdf(pdf, pdfOptions(citations));
      await run(source, invoice, { output }, citations);
      ms.push(performance.now() - started);
      usage = calls;
    }
    return {
      tokens: usage.prompt + usage.completion,
      promptTokens: usage.prompt,
      completionTokens: usage.completion,
      ms,
    };
  };
  out.cost.push({ name, without: await measure(false), with: await measure(true) });
}

await standIn.close();
emitResult(out);
progress(
  `§10 done: median IoU ${median(out.ious).toFixed(2)}, repeated values ${median(out.repeatedIous).toFixed(2)}`,
);
