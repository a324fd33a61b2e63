/**
 * Document conversion, three ways over the same DOCX files (docs/decisions.md#documents-one-fresh-libreoffice-per-file):
 * - `bare`: `soffice --headless --convert-to pdf` per file, as a person would run it (one
 *   profile kept between runs, no isolation): the floor for a fresh process per file;
 * - `service`: the worker's own converter (`createDocumentConverter`): a fresh LibreOffice per
 *   file with a fresh profile, in its own network and PID namespaces, as `nobody` when root,
 *   under prlimit;
 * - `kept`: one LibreOffice started once with `--accept` and kept running, each file loaded and
 *   exported over UNO (Debian's python3-uno, as unoserver does).
 * Each is run `--rounds` times over `--files` documents of about three pages, one file at a
 * time, in turns. Prints pages per second, per-file latency, the converter's peak RSS (its
 * largest process, VmHWM) and this process's own peak RSS (the worker's share while converting).
 *
 *   nice -n 10 npx tsx scripts/bench/converter.ts --files 20 --rounds 2
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createDocumentConverter } from '@xt/sources';
import { convertWithLibreOffice, SOFFICE } from '@xt/testkit/fixtures';
import { commOf, peakRssMiB, processTree, resetPeak } from './lib/proc.ts';
import { median, percentile } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
  },
});
const FILES = Number(values.files);
const ROUNDS = Number(values.rounds);
const DEBIAN_PYTHON = '/usr/bin/python3';
const UNO_CLIENT = join(import.meta.dirname, 'lib', 'uno-convert.py');

type Variant = 'bare' | 'service' | 'kept';
/** What a variant's runner measures; the watcher adds the peaks. */
type Measured = Omit<Run, 'converterPeakMiB' | 'selfPeakMiB'>;
interface Run {
  variant: Variant;
  latenciesMs: number[];
  pages: number;
  wallMs: number;
  converterPeakMiB: number;
  selfPeakMiB: number;
  startMs?: number;
}

/** A report of about three pages: headings, paragraphs and a table, different in each file. */
function report(n: number): string {
  const para = (k: number) =>
    `<p>Section ${k} of report ${n}. Deliveries to warehouse ${k % 7} were checked against the order book; quantities, unit prices and totals below are as invoiced, net of the agreed discount of ${(k % 5) + 2}% and before VAT. Questions go to the accounts team.</p>`;
  const rows = Array.from(
    { length: 25 },
    (_, i) =>
      `<tr><td>${n}-${i + 1}</td><td>Item ${1000 + i}</td><td>${(i + 1) * 3}</td><td>${((i + 1) * 1.25).toFixed(2)}</td></tr>`,
  ).join('');
  const body = Array.from(
    { length: 6 },
    (_, k) => `<h2>Part ${k + 1}</h2>${para(k)}${para(k + 10)}${para(k + 20)}`,
  ).join('');
  return `<html><body><h1>Report ${n}</h1>${body}<table border="1"><tr><th>Ref</th><th>Item</th><th>Qty</th><th>Price</th></tr>${rows}</table>${body}</body></html>`;
}

/** Page objects of a PDF LibreOffice wrote (it writes them uncompressed, one per page). */
const pagesOf = (pdf: string) =>
  readFileSync(pdf)
    .toString('latin1')
    .match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;

/** The largest VmHWM of any LibreOffice process below this one, sampled while `work` runs. */
async function watched<T>(work: () => Promise<T>): Promise<{ value: T; converterPeakMiB: number }> {
  let peak = 0;
  const sample = () => {
    for (const pid of processTree([process.pid])) {
      if (/soffice/.test(commOf(pid))) peak = Math.max(peak, peakRssMiB(pid));
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const value = await work();
    sample();
    return { value, converterPeakMiB: peak };
  } finally {
    clearInterval(timer);
  }
}

async function runBare(files: string[], out: string): Promise<Measured> {
  const profile = join(out, 'profile');
  const latenciesMs: number[] = [];
  let pages = 0;
  const started = performance.now();
  for (const file of files) {
    const t = performance.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        SOFFICE,
        [
          `-env:UserInstallation=file://${profile}`,
          '--headless',
          '--convert-to',
          'pdf',
          '--outdir',
          out,
          file,
        ],
        { stdio: 'ignore', env: { ...process.env, HOME: out } },
      );
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soffice ${code}`))));
    });
    latenciesMs.push(performance.now() - t);
    pages += pagesOf(
      join(
        out,
        file
          .split('/')
          .at(-1)!
          .replace(/\.docx$/, '.pdf'),
      ),
    );
  }
  return { variant: 'bare', latenciesMs, pages, wallMs: performance.now() - started };
}

async function runService(files: string[], out: string): Promise<Measured> {
  const converter = createDocumentConverter({
    memoryMb: 3072,
    timeoutMs: 180_000,
    concurrency: 1,
    environment: process.env,
  });
  await converter.isolation();
  const latenciesMs: number[] = [];
  let pages = 0;
  const started = performance.now();
  for (const [i, file] of files.entries()) {
    const t = performance.now();
    const pdf = await converter.convertToPdf(readFileSync(file), 'docx');
    latenciesMs.push(performance.now() - t);
    const target = join(out, `service-${i}.pdf`);
    writeFileSync(target, pdf);
    pages += pagesOf(target);
  }
  return { variant: 'service', latenciesMs, pages, wallMs: performance.now() - started };
}

/** One line in, one line out, to the UNO client. */
function ask(
  client: { stdin: NodeJS.WritableStream },
  lines: AsyncIterator<string>,
  line?: string,
) {
  if (line !== undefined) client.stdin.write(`${line}\n`);
  return lines.next().then((r) => {
    if (r.done) throw new Error('the UNO client stopped');
    return r.value;
  });
}

async function runKept(files: string[], out: string): Promise<Measured> {
  const pipe = `xt-bench-${process.pid}`;
  const t0 = performance.now();
  const office = spawn(
    SOFFICE,
    [
      `-env:UserInstallation=file://${join(out, 'kept-profile')}`,
      '--headless',
      '--invisible',
      '--nologo',
      '--norestore',
      '--nodefault',
      `--accept=pipe,name=${pipe};urp;`,
    ],
    { stdio: 'ignore', env: { ...process.env, HOME: out } },
  );
  const client = spawn(DEBIAN_PYTHON, [UNO_CLIENT, pipe], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: client.stdout })[Symbol.asyncIterator]();
  try {
    if ((await ask(client, lines)) !== 'ready') throw new Error('the UNO client did not connect');
    const startMs = performance.now() - t0;
    const latenciesMs: number[] = [];
    let pages = 0;
    const started = performance.now();
    for (const [i, file] of files.entries()) {
      const target = join(out, `kept-${i}.pdf`);
      const t = performance.now();
      const answer = await ask(client, lines, `${file} ${target}`);
      if (!answer.startsWith('ok')) throw new Error(answer);
      latenciesMs.push(performance.now() - t);
      pages += pagesOf(target);
    }
    return { variant: 'kept', latenciesMs, pages, wallMs: performance.now() - started, startMs };
  } finally {
    client.stdin.end();
    client.kill();
    office.kill();
    await new Promise((resolve) => office.once('exit', resolve));
  }
}

const RUNNERS: Record<Variant, (files: string[], out: string) => Promise<Measured>> = {
  bare: runBare,
  service: runService,
  kept: runKept,
};

const dir = mkdtempSync(join(tmpdir(), 'bench-converter-'));
try {
  console.log(`# writing ${FILES} DOCX files with LibreOffice`);
  const made = await convertWithLibreOffice(
    Array.from({ length: FILES }, (_, i) => ({
      name: `report-${i + 1}.html`,
      content: report(i + 1),
    })),
    'docx:MS Word 2007 XML',
    { timeoutMs: 600_000 },
  );
  const files = [...made].map(([name, bytes]) => {
    const file = join(dir, `${name}.docx`);
    writeFileSync(file, bytes);
    return file;
  });
  const runs: Run[] = [];
  const order: Variant[] = ['bare', 'service', 'kept'];
  for (let round = 0; round < ROUNDS; round++) {
    // Turns rotate so that no variant always runs first on a cold cache.
    for (const variant of [...order.slice(round % 3), ...order.slice(0, round % 3)]) {
      const out = join(dir, `${variant}-${round}`);
      mkdirSync(out);
      resetPeak(process.pid);
      const { value, converterPeakMiB } = await watched(() => RUNNERS[variant](files, out));
      const run: Run = { ...value, converterPeakMiB, selfPeakMiB: peakRssMiB(process.pid) };
      runs.push(run);
      console.log(
        `# round ${round + 1} ${variant}: ${run.pages} pages in ${(run.wallMs / 1000).toFixed(1)} s, median ${median(run.latenciesMs).toFixed(0)} ms, converter ${run.converterPeakMiB.toFixed(0)} MiB`,
      );
      rmSync(out, { recursive: true, force: true });
    }
  }
  console.log(
    '\n| Converter | Pages/s | Per file, median (ms) | Per file, p90 (ms) | Converter peak RSS (MiB) | Node process peak RSS (MiB) |',
  );
  console.log('| --- | --: | --: | --: | --: | --: |');
  for (const variant of order) {
    const mine = runs.filter((r) => r.variant === variant);
    const latencies = mine.flatMap((r) => r.latenciesMs);
    const pagesPerS = mine.map((r) => r.pages / (r.wallMs / 1000));
    const range = (xs: number[], d = 2) =>
      xs.length > 1
        ? `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`
        : xs[0]!.toFixed(d);
    const start = mine.flatMap((r) => (r.startMs === undefined ? [] : [r.startMs]));
    console.log(
      `| ${variant}${start.length ? ` (start ${median(start).toFixed(0)} ms, once)` : ''} | ${range(pagesPerS)} | ${median(latencies).toFixed(0)} | ${percentile(latencies, 90).toFixed(0)} | ${Math.max(...mine.map((r) => r.converterPeakMiB)).toFixed(0)} | ${Math.max(...mine.map((r) => r.selfPeakMiB)).toFixed(0)} |`,
    );
  }
  console.log(
    `\n${runs[0]!.pages / FILES} pages a file; ${ROUNDS} rounds of ${FILES} files, one at a time.`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
