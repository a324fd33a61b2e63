/**
 * 15. One long document across worker processes (run as a child): PostgreSQL, Redis, one API
 * and one or two worker processes as `npm start` runs them, and the model stand-in in this
 * process, answering each call after a fixed delay (a model's latency). The same long PDF is
 * extracted, one at a time, with:
 * - `SPLIT_PAGES` 40 (page windows, docs/scaling.md#one-large-document) and with a split larger
 *   than the document (today's one-job path), each with 1 and with 2 worker processes.
 * `--kind text` (default): a text PDF (a statement, pdf-lib), the stand-in in oracle mode, so
 * the rows are checked. `--kind scanned`: the same statement's pages as 150-dpi images (pdf-lib
 * embedding PNGs drawn by sharp, as §5's scanned pages), extracted with `citations: true`, so
 * each page is rasterised for the model and read with tesseract; the stand-in answers every
 * call with no rows (an oracle would run tesseract on every page image in this process).
 * Each worker has one prep thread (`PREP_THREADS=1`), so a process is one core's worth of
 * preparation. Measures the wall time from the create to the completed record, the worker
 * processes' CPU time per page, their peak RSS, and the load average before and after each
 * run. Prints `RESULT`.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import {
  longStatementPdf,
  longStatementRow,
  mixedPdf,
  statementCells,
  STATEMENT_STRUCTURE as STRUCTURE,
} from '@xt/testkit/fixtures';
import { startModelStandIn } from '@xt/testkit/model-stand-in';
import { emitResult, progress } from '../lib/child.ts';
import { cpuMs, peakRssMiB, processTree } from '../lib/proc.ts';
import { startApi, startServers, startWorker, Workdir, type Proc } from '../lib/stack.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000' },
    rows: { type: 'string', default: '5' },
    'model-ms': { type: 'string', default: '1000' },
    kind: { type: 'string', default: 'text' },
    // A shorter scanned run keeps two windows per document with a smaller split.
    split: { type: 'string', default: '40' },
    // Which runs, as w (windowed) or o (one job) and the worker processes: a long scan's one
    // job with two processes is the one job with one (a job runs on one process), and costs
    // minutes a run.
    runs: { type: 'string', default: 'w1,w2,o1,o2' },
  },
});
const SCANNED = values.kind === 'scanned';
if (!SCANNED && values.kind !== 'text') throw new Error('--kind must be "text" or "scanned"');
const PAGES = Number(values.pages);
const ROWS = Number(values.rows);
const MODEL_MS = Number(values['model-ms']);

export interface WindowRun {
  workers: number;
  windowed: boolean;
  seconds: number;
  /** CPU ms of the worker processes over the run, per page */
  cpuMsPerPage: number;
  /** the largest peak RSS of a worker process (MiB) */
  peakRssMiB: number;
  calls: number;
  /** text: the rows came back whole and in order; scanned: the extraction completed */
  rowsOk: boolean;
  /** one-minute load average before and after the run */
  load: [number, number];
}

export interface WindowsResult {
  kind: 'text' | 'scanned';
  pages: number;
  rows: number;
  modelMs: number;
  runs: WindowRun[];
}

const standIn = await startModelStandIn({
  port: 0,
  defaultBehaviour: SCANNED
    ? { respond: () => ({ rows: [] }), delayMs: MODEL_MS }
    : { oracle: true, delayMs: MODEL_MS },
});

/** The statement's pages as scanned images: the same rows, drawn as a 150-dpi page. */
async function scannedStatement(pages: number, rowsPerPage: number) {
  const specs = Array.from({ length: pages }, (_, p) => {
    const rows = Array.from({ length: rowsPerPage }, (_, r) =>
      statementCells(longStatementRow(p * rowsPerPage + r)).join('  '),
    );
    return { scan: [...rows, `Page ${p + 1} of ${pages}`].join(' ') };
  });
  return { pdf: await mixedPdf(specs), rows: [] };
}
const workdir = new Workdir();
const servers = await startServers('own');
const procs: Proc[] = [];
try {
  const db = await servers.createDatabase('windows');
  const env = {
    databaseUrl: db.url,
    redisUrl: servers.redisUrl,
    queuePrefix: 'benchwindows',
    modelUrl: standIn.url,
  };
  const api = await startApi(workdir, 'api', env);
  procs.push(api);
  const handle = createDb(db.url, { max: 1 });
  const { key } = await createKey(handle.db, { accountName: 'bench-windows', scope: 'write' });
  const auth = { authorization: `Bearer ${key}` };
  const schema = await fetch(`${api.url}/v1/schemas`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Statement', structure: STRUCTURE }),
  });
  const schemaId = ((await schema.json()) as { data: { id: string } }).data.id;
  const { pdf, rows } = SCANNED
    ? await scannedStatement(PAGES, ROWS)
    : await longStatementPdf({ pages: PAGES, rowsPerPage: ROWS });
  progress(`§15 a ${PAGES}-page ${values.kind} statement, ${pdf.length} bytes`);

  let runsStarted = 0;
  const run = async (workers: number, windowed: boolean): Promise<WindowRun> => {
    const started: Proc[] = [];
    for (let i = 0; i < workers; i++)
      started.push(
        await startWorker(workdir, `worker-${windowed ? 'w' : 'o'}${workers}-${i}`, env, {
          SPLIT_PAGES: windowed ? values.split : String(PAGES + 1),
          PREP_THREADS: '1',
          MODEL_MAX_INPUT_TOKENS: '20000',
          MAX_MODEL_CALLS_PER_EXTRACTION: '1000',
          // Every scanned page is sent as an image: one job would stop at the default 100.
          ...(SCANNED ? { MAX_PDF_IMAGE_PAGES: String(PAGES) } : {}),
          // OCR of a scanned page takes seconds on a loaded machine: one job's preparation of
          // them all, in one prep task, would pass the default deadlines (120 s, 10 minutes).
          ...(SCANNED ? { PREP_TIMEOUT_MS: '1800000', JOB_TIMEOUT_MS: '3600000' } : {}),
        }),
      );
    try {
      // Up and warm: the first job of a process loads pdf.js on its prep thread.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const tree = () => processTree(started.map((p) => p.pid));
      const load0 = loadavg()[0]!;
      const cpu0 = cpuMs(tree());
      const calls0 = standIn.requests.length;
      const form = new FormData();
      form.set('schema_id', schemaId);
      form.set('type', 'pdf');
      // The same document each run: reuse (docs/reuse.md) would answer all but the first.
      form.set('cache', 'false');
      if (SCANNED) form.set('citations', 'true');
      // Different bytes each run (a comment after the end of the file, which readers skip):
      // the same bytes would take the preparation an earlier one-job run stored
      // (docs/reuse.md#preparations), which `cache: false` does not turn off.
      const bytes = Buffer.concat([pdf, Buffer.from(`\n% run ${++runsStarted}\n`)]);
      form.set('source', new Blob([new Uint8Array(bytes)]), 'statement.pdf');
      const t0 = performance.now();
      const res = await fetch(`${api.url}/v1/extractions`, {
        method: 'POST',
        headers: { ...auth, prefer: 'respond-async' },
        body: form,
      });
      let rec = ((await res.json()) as { data: { id: string; status: string; result?: unknown } })
        .data;
      while (['pending', 'processing'].includes(rec.status)) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const again = await fetch(`${api.url}/v1/extractions/${rec.id}`, { headers: auth });
        rec = ((await again.json()) as { data: typeof rec }).data;
      }
      const seconds = (performance.now() - t0) / 1000;
      const cpu = cpuMs(tree()) - cpu0;
      const out = (rec.result as { rows?: unknown[] } | undefined)?.rows;
      const result: WindowRun = {
        workers,
        windowed,
        seconds,
        cpuMsPerPage: cpu / PAGES,
        peakRssMiB: Math.max(...tree().map(peakRssMiB)),
        calls: standIn.requests.length - calls0,
        rowsOk:
          rec.status === 'completed' && (SCANNED || JSON.stringify(out) === JSON.stringify(rows)),
        load: [load0, loadavg()[0]!],
      };
      progress(`§15 ${JSON.stringify(result)}`);
      return result;
    } finally {
      for (const p of started) await p.stop();
    }
  };

  const runs: WindowRun[] = [];
  for (const name of values.runs.split(',').map((r) => r.trim())) {
    const parsed = /^([wo])([12])$/.exec(name);
    if (!parsed) throw new Error(`--runs: "${name}" is not w1, w2, o1 or o2`);
    runs.push(await run(Number(parsed[2]), parsed[1] === 'w'));
  }
  await handle.close();
  emitResult({
    kind: SCANNED ? 'scanned' : 'text',
    pages: PAGES,
    rows: ROWS,
    modelMs: MODEL_MS,
    runs,
  } satisfies WindowsResult);
} finally {
  for (const p of procs) await p.stop().catch(() => undefined);
  await servers.stop();
  await standIn.close();
  workdir.cleanup();
}
