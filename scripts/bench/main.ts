/**
 * `npm run bench [-- --quick] [--servers own|environment] [--out docs/benchmarks.md]
 *  [--sections 1,2,...] [--reps N] [--note "text"] [--profile DIR]`
 *
 * Starts everything it needs on this machine, measures each figure beside its baseline in the
 * same run, prints the table and writes it to docs/benchmarks.md (see that file for what each
 * row means). Benchmarks print figures; they never fail for being slow.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { BenchStack } from './lib/bench-stack.ts';
import { makePlan } from './lib/plan.ts';
import { Results } from './lib/report.ts';
import { REPO_ROOT } from './lib/stack.ts';
import type { MemoryBySection } from './lib/memory.ts';
import { runWritePath } from './sections/write-path.ts';
import { historyEntry, renderPage, type PageInfo } from './lib/page.ts';
import { measureUploads } from './sections/uploads.ts';
import { runWorkerCode } from './sections/worker-code.ts';
import { measureSize } from './sections/size.ts';
import { measurePgBouncer } from './sections/pgbouncer.ts';
import { measureBlobStores } from './sections/blob-stores.ts';
import { measureOffice } from './sections/office-rows.ts';
import { measureReuse } from './sections/reuse-rows.ts';
import { measureWindows } from './sections/windows-rows.ts';
import { measureSplit } from './sections/split-rows.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    servers: { type: 'string', default: 'own' },
    out: { type: 'string' },
    sections: { type: 'string', default: '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16' },
    reps: { type: 'string' },
    note: { type: 'string', multiple: true, default: [] },
    profile: { type: 'string' },
    // §15's scanned PDF: 300 pages; fewer where OCR of 1,200 pages would not finish in time.
    'scanned-pages': { type: 'string', default: '300' },
  },
});
if (values.servers !== 'own' && values.servers !== 'environment') {
  throw new Error('--servers must be "own" or "environment"');
}
const plan = makePlan(values.quick, values.reps === undefined ? undefined : Number(values.reps));
const sections = new Set(values.sections.split(',').map((s) => Number(s.trim())));
const out = values.out ?? join(REPO_ROOT, 'docs', 'benchmarks.md');
const started = Date.now();
const loadAtStart = loadavg()[0]!;
const log = (line: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

const results = new Results();
const memory: MemoryBySection = {};
const details: string[] = [];
const stack = new BenchStack({
  servers: values.servers,
  modelMs: plan.modelMs,
  workerConcurrency: plan.workerConcurrency,
  // Service processes write a V8 CPU profile when they stop (see profile-summary.ts).
  nodeArgs: values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [],
  log,
});
let failed = false;
// Sections 6, 7, 10, 13, 14, 15 and 16 start what they need themselves.
const needsStack = [1, 2, 3, 4, 5, 9, 11, 12].some((s) => sections.has(s));
try {
  if (needsStack) await stack.start();
  if ([1, 2, 3, 4].some((s) => sections.has(s))) {
    await runWritePath(stack, plan, sections, results, log, memory);
  }
  // After the write path: its million rows would otherwise sit in the tables §1–§4 measure.
  if (sections.has(11)) await measurePgBouncer(stack, plan, results, log);
  if (sections.has(9)) await measureSize(stack, plan, results, log);
  if (sections.has(12)) await measureBlobStores(stack, plan, results, log);
  await runWorkerCode(plan, sections, results, log, memory, () =>
    measureUploads(stack, plan, results, log),
  );
  if (sections.has(13)) await measureOffice(plan, results, log);
  if (sections.has(14)) await measureReuse(plan.quick, results, log);
  if (sections.has(15))
    await measureWindows(plan.quick, results, log, Number(values['scanned-pages']));
  if (sections.has(16)) await measureSplit(plan.quick, results, log);
} catch (error) {
  failed = true;
  stack.workdir.markFailed();
  console.error(error);
} finally {
  await stack.stop().catch((error: unknown) => console.error('stopping:', error));
  stack.workdir.cleanup();
}

const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const info: PageInfo = {
  quick: plan.quick,
  reps: plan.reps,
  servers: values.servers,
  seconds: (Date.now() - started) / 1000,
  notes: values.note,
  memory,
  details,
  load: [loadAtStart, loadavg()[0]!],
  command: `npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
};
const page = renderPage(results, info, when);
console.log(`\n${page}`);
if (failed && results.rows.length === 0) {
  log(`not writing ${out}: the run failed before measuring anything`);
} else {
  writeFileSync(out, page);
  const history = join(dirname(out), 'benchmarks-history.md');
  appendFileSync(history, historyEntry(results, info, when));
  log(`wrote ${out} and added the run to ${history}`);
}
process.exitCode = failed ? 1 : 0;
