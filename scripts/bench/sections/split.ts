/**
 * 16. Splitting bundles (run as a child process): PostgreSQL, Redis, one API and one worker
 * process as `npm start` runs them, and the model stand-in in this process in oracle mode (it
 * classifies a bundle's pages by their titles, docs/split.md, and answers extractions from what
 * reached it), answering after `--model-ms`. Every bundle of `datasets/bundles` goes through
 * `POST /v1/extractions` with `split`, one bundle at a time, twice:
 * - split only: the classes name no schema, so the parent completes once its pages are
 *   classified (no children): the time of splitting alone;
 * - split and extract: each class names its data set's schema, so every document becomes a
 *   child extraction and the parent completes when the last child is final.
 * Each parent's `result.documents` is scored against `expected/` (lib/split-score.ts), and its
 * time is the record's own, `updatedAt − createdAt` of the completed parent.
 * Then the time from a review correction to its test case: an invoice child (its schema samples
 * every extraction for review) approved with a correction by `POST /v1/extractions/{id}/review`,
 * then `xt reviews export` run until the case file for it exists.
 * Prints `RESULT`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { startModelStandIn } from '@xt/testkit/model-stand-in';
import { emitResult, progress } from '../lib/child.ts';
import { REPO_ROOT, startApi, startServers, startWorker, Workdir } from '../lib/stack.ts';
import {
  NO_COUNTS,
  addCounts,
  scoreSplit,
  type SplitCounts,
  type SplitDocument,
} from '../lib/split-score.ts';
import { reviewToCase, type ReviewFigure } from './split-review.ts';
import { service, type Rec } from './split-service.ts';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: join(REPO_ROOT, 'datasets', 'bundles') },
    'model-ms': { type: 'string', default: '0' },
    /** only these bundles (names, comma-separated): a quick run */
    bundles: { type: 'string' },
    /** seconds a bundle may take before it counts as not finished */
    timeout: { type: 'string', default: '600' },
  },
});
const MODEL_MS = Number(values['model-ms']);
const TIMEOUT_MS = Number(values.timeout) * 1000;

interface SplitClass {
  name: string;
  description?: string;
  schema?: { name: string; structure: unknown };
}

interface Bundle {
  name: string;
  file: string;
  pages: number;
  scanned: boolean;
  expected: SplitDocument[];
}

/** One bundle through the service. */
export interface BundleRun {
  bundle: string;
  pages: number;
  /** it holds scanned pages, read by OCR */
  scanned: boolean;
  status: string;
  /** the record's own: updatedAt − createdAt of the final parent; null when refused */
  seconds: number | null;
  counts: SplitCounts;
  documents: number;
  children: number;
  childrenCompleted: number;
}

export interface SplitResult {
  modelMs: number;
  bundles: number;
  pages: number;
  splitOnly: BundleRun[];
  withSchemas: BundleRun[];
  review: ReviewFigure | { error: string };
}

const dataset = values.dataset;
const split = JSON.parse(await readFile(join(dataset, 'split.json'), 'utf8')) as {
  classes: SplitClass[];
  other?: boolean;
};
const readme = await readFile(join(dataset, 'README.md'), 'utf8');
const only = values.bundles?.split(',').map((s) => s.trim());
const bundles: Bundle[] = [];
for (const file of (await readdir(join(dataset, 'cases'))).sort()) {
  const name = basename(file, '.pdf');
  if (only && !only.includes(name)) continue;
  const expected = (
    JSON.parse(await readFile(join(dataset, 'expected', `${name}.json`), 'utf8')) as {
      documents: SplitDocument[];
    }
  ).documents;
  bundles.push({
    name,
    file: join(dataset, 'cases', file),
    pages: expected.at(-1)!.pages.to,
    // The README's table names each bundle's scans.
    scanned: new RegExp(`\`${name}\`.*\\(scan\\)`).test(readme),
    expected,
  });
}

const standIn = await startModelStandIn({
  port: 0,
  defaultBehaviour: { oracle: true, delayMs: MODEL_MS },
});
const workdir = new Workdir();
const servers = await startServers('own');
const procs: { stop(): Promise<void> }[] = [];
try {
  const db = await servers.createDatabase('split');
  const env = {
    databaseUrl: db.url,
    redisUrl: servers.redisUrl,
    queuePrefix: 'benchsplit',
    modelUrl: standIn.url,
  };
  progress('§16 starting an API and a worker');
  const [api, worker] = await Promise.all([
    startApi(workdir, 'api', env),
    startWorker(workdir, 'worker', env),
  ]);
  procs.push(api, worker);
  const handle = createDb(db.url, { max: 1 });
  const { key } = await createKey(handle.db, { accountName: 'bench-split', scope: 'write' });
  await handle.close();
  const client = service(api.url, key, TIMEOUT_MS);
  const { call, settle, upload } = client;

  /** Invoice children of the split-and-extract run, for the review measurement. */
  const invoiceChildren: string[] = [];

  const runBundle = async (bundle: Bundle, classes: unknown[]): Promise<BundleRun> => {
    let created: Rec;
    try {
      created = await upload(
        { type: 'pdf', split: JSON.stringify({ classes, other: split.other ?? true }) },
        bundle.file,
      );
    } catch (error) {
      // A service without `split` refuses the create: the bundle counts as nothing found.
      progress(`§16 ${bundle.name}: ${String(error)}`);
      return {
        bundle: bundle.name,
        pages: bundle.pages,
        scanned: bundle.scanned,
        status: 'refused',
        seconds: null,
        counts: scoreSplit(bundle.expected, []),
        documents: 0,
        children: 0,
        childrenCompleted: 0,
      };
    }
    const rec = await settle(created.id);
    const documents = rec.result?.documents ?? [];
    for (const d of documents)
      if (d.class === 'invoice' && d.extractionId) invoiceChildren.push(d.extractionId);
    const children = documents.some((d) => d.extractionId)
      ? (await call<{ data: Rec[] }>('GET', `/v1/extractions?parent_id=${rec.id}&limit=100`)).data
      : [];
    const run: BundleRun = {
      bundle: bundle.name,
      pages: bundle.pages,
      scanned: bundle.scanned,
      status: rec.status,
      seconds: (Date.parse(rec.updatedAt) - Date.parse(rec.createdAt)) / 1000,
      counts: scoreSplit(bundle.expected, rec.status === 'completed' ? documents : []),
      documents: documents.length,
      children: children.length,
      childrenCompleted: children.filter((c) => c.status === 'completed').length,
    };
    const c = run.counts;
    const right =
      c.foundBoundaries === c.trueBoundaries &&
      c.predictedBoundaries === c.foundBoundaries &&
      c.classRight === c.documents;
    const got = documents.map((d) => `${d.class} ${d.pages.from}-${d.pages.to}`).join(', ');
    progress(
      `§16 ${bundle.name} (${bundle.pages} p.${bundle.scanned ? ', scans' : ''}): ${rec.status} in ${run.seconds!.toFixed(2)} s, ${documents.length} documents${children.length ? `, ${run.childrenCompleted}/${children.length} children completed` : ''}${right ? '' : `; got ${got}`}${rec.status === 'failed' ? ` ${JSON.stringify(rec.error)}` : ''}`,
    );
    return run;
  };

  const total = (runs: BundleRun[]) => runs.reduce((sum, r) => addCounts(sum, r.counts), NO_COUNTS);

  // The worker's first job loads the code every later one shares (PDF reading, the model
  // client): one bundle split first and not counted, so the first measured one is no slower.
  const bare = split.classes.map(({ name, description }) => ({ name, description }));
  progress('§16 warming up (one bundle, not counted)');
  await runBundle(bundles[0]!, bare);
  invoiceChildren.length = 0;
  progress(`§16 ${bundles.length} bundles, split only (classes without schemas)`);
  const splitOnly: BundleRun[] = [];
  for (const bundle of bundles) splitOnly.push(await runBundle(bundle, bare));
  progress(`§16 split only: ${JSON.stringify(total(splitOnly))}`);

  // Each class's schema; the invoice schema sends every extraction to review (sample 1).
  const schemaIds = new Map<string, string>();
  for (const c of split.classes) {
    if (!c.schema) continue;
    const review = c.name === 'invoice' ? { review: { minConfidence: 0.5, sample: 1 } } : {};
    const created = await call<{ id: string }>('POST', '/v1/schemas', { ...c.schema, ...review });
    schemaIds.set(c.name, created.id);
  }
  const withSchemaClasses = split.classes.map(({ name, description }) => ({
    name,
    description,
    ...(schemaIds.has(name) ? { schema_id: schemaIds.get(name) } : {}),
  }));
  progress(`§16 ${bundles.length} bundles, split and extract (each class with its schema)`);
  const withSchemas: BundleRun[] = [];
  for (const bundle of bundles) withSchemas.push(await runBundle(bundle, withSchemaClasses));
  progress(`§16 split and extract: ${JSON.stringify(total(withSchemas))}`);

  let review: SplitResult['review'];
  try {
    const invoiceSchema = schemaIds.get('invoice');
    if (!invoiceSchema) throw new Error('split.json gives the invoice class no schema');
    const child = invoiceChildren[0];
    const first = child
      ? await reviewToCase(client, child, 'a split child (an invoice)', invoiceSchema)
      : { notWritten: 'the split made no invoice child' };
    if (!('notWritten' in first)) review = first;
    else {
      // The child's case was not exported: measure an ordinary upload's, and say why.
      progress(`§16 no case for a child (${first.notWritten}); an ordinary upload instead`);
      const file = join(REPO_ROOT, 'datasets', 'invoices-text', 'cases', 'INV-2026-1001.pdf');
      const plain = await settle(
        (await upload({ type: 'pdf', schema_id: invoiceSchema }, file)).id,
      );
      const second = await reviewToCase(client, plain.id, 'an uploaded invoice PDF', invoiceSchema);
      if ('notWritten' in second) throw new Error(`not exported either: ${second.notWritten}`);
      review = { ...second, skipped: `no case for a split child: ${first.notWritten}` };
    }
  } catch (error) {
    review = { error: String(error) };
  }
  progress(`§16 review to test case: ${JSON.stringify(review)}`);

  emitResult({
    modelMs: MODEL_MS,
    bundles: bundles.length,
    pages: bundles.reduce((n, b) => n + b.pages, 0),
    splitOnly,
    withSchemas,
    review,
  } satisfies SplitResult);
} finally {
  for (const p of procs.reverse()) await p.stop();
  await servers.stop();
  await standIn.close();
  workdir.cleanup();
}
