/** docs/benchmarks.md: the table, memory per process kind, notes and how to reproduce. */
import type { KindPeak } from './memory.ts';
import { cpus } from 'node:os';
import { CONVERSION } from './conversion.ts';
import { MODEL_DIALECTS } from './model-dialects.ts';
import { OCR_READINGS } from './ocr-readings.ts';
import { PIPELINE_RECALL } from './pipeline-recall.ts';
import { machineLine, markdownTable, type Results } from './report.ts';

export interface PageInfo {
  quick: boolean;
  reps: number;
  servers: string;
  seconds: number;
  notes: readonly string[];
  command: string;
  memory: Record<string, Record<string, KindPeak>>;
  details: readonly string[];
  /** 1-minute load averages at the start and the end: how busy the machine was otherwise. */
  load: [number, number];
}

function memoryTable(memory: PageInfo['memory']): string {
  const sections = Object.keys(memory).sort();
  if (sections.length === 0) return '_No memory readings in this run._';
  const lines = [
    '| During § | Process kind | Processes | Peak RSS of one process (MiB) | Peak total PSS (MiB) |',
    '| -------- | ------------ | --------- | ----------------------------- | -------------------- |',
  ];
  for (const section of sections) {
    for (const [kind, peak] of Object.entries(memory[section]!)) {
      lines.push(
        `| ${section} | ${kind} | ${peak.processes} | ${peak.processMiB.toFixed(0)} | ${peak.totalMiB.toFixed(0)} |`,
      );
    }
  }
  return lines.join('\n');
}

/** The run's conditions: when, where, how long, and how busy the machine was otherwise. */
export function runLine(info: PageInfo, when: string): string {
  return `Run ${when} on ${machineLine()}: ${info.quick ? '**quick run** (short phases, for development)' : 'full run'},
${info.reps} repetition${info.reps > 1 ? 's' : ''} of each measurement, PostgreSQL and Redis ${
    info.servers === 'own'
      ? 'started by the run (private servers, so /proc accounting sees only this run; PostgreSQL with fsync and synchronous commit off, as the test kit runs it, for both pipelines alike)'
      : 'from `DATABASE_URL` / `REDIS_URL`'
  }, ${Math.round(info.seconds)} s in all. One-minute load average ${info.load[0].toFixed(1)} at the
start and ${info.load[1].toFixed(1)} at the end (${cpus().length} cores).`;
}

/**
 * One run as docs/benchmarks-history.md keeps it, appended after every run: the page keeps the
 * current figures first, and the notes of how each run went (once a wall of footnotes before
 * the table) live here with the table they explain.
 */
export function historyEntry(results: Results, info: PageInfo, when: string): string {
  return `
## ${when}: \`${info.command}\`

${runLine(info, when)}
${info.notes.map((n) => `\n${n}\n`).join('')}
${markdownTable(results.rows)}
`;
}

export function renderPage(results: Results, info: PageInfo, when: string): string {
  return `# Benchmarks

<!-- Written by \`npm run bench\` (scripts/bench/main.ts); edit the script, not this file. -->

Each cell is the median over the repetitions with the range (min–max) in brackets; the
baseline is measured in the same run, alternating with the service. Targets are judged on
medians. Benchmarks print figures: a missed target does not fail anything. Earlier runs, with
their notes: [benchmarks-history.md](benchmarks-history.md).

${markdownTable(results.rows)}

${runLine(info, when)}

${results.notes.map((n) => `- ${n}`).join('\n')}

## Memory (§8)

Peak resident memory per process kind while sections 2, 3 and 6 ran. A process's peak RSS is
its kernel high-water mark (VmHWM, reset at the start of the section); the total is the peak of
the kind's summed PSS (shared pages split between processes), sampled every 500 ms.

${memoryTable(info.memory)}

${info.details.join('\n\n')}

Where the time goes for each target this run missed, from \`--profile\` runs, and what would
change it: [performance.md](performance.md).

${PIPELINE_RECALL}
${OCR_READINGS}
${MODEL_DIALECTS}
${CONVERSION}
## What each row measures

- **§1 Service overhead**: synchronous \`POST /v1/extractions\` (text) from 1, 50 and 200
  closed-loop clients for a fixed time; each answer's wall time minus the model stand-in's fixed
  1 s latency. Baseline: the bare pipeline (below) answering after \`job.waitUntilFinished\`.
- **§2 Cost per extraction**: asynchronous creates submitted by 50 clients as fast as they are
  answered, one worker process running up to 1,000 jobs at once, the stand-in at 1 s. CPU is
  user + system time read from \`/proc/<pid>/stat\` for every process of the service (API,
  worker and their children, every PostgreSQL process, Redis) from the first submission until
  the last extraction is final, divided by the extractions completed. Throughput is
  extractions finished per second over the same window.
- **Bare pipeline** (scripts/bench/baseline): an Express route inserting a row with \`pg\` and
  adding a BullMQ job; a BullMQ worker moving the row to processing, calling the same stand-in
  with the \`openai\` SDK and storing the output. No auth, validation, rate limit or logging.
- **§3 Scale-out**: the §2 load through HAProxy (Debian's package, round robin, keep-alive) in
  front of 1 or 2 API processes, with 1 or 2 worker processes (1,000 jobs in flight each). The
  baseline column is the 1 API × 1 worker shape, so the ratio is the scaling factor.
- **§4 Read path**: autocannon, 50 connections, against one record and a 10-row list page
  (count plus page, as the service's list runs); the baseline routes run the same SQL with \`pg\`.
- **§5 Upload ingestion**: a PDF of 20 MB (5 MB with \`--quick\`) sent as a multipart file part
  with \`Prefer: respond-async\`, 4 at a time, 12 files (4 with \`--quick\`): MB/s from the first
  send to the last answer, and the API's peak RSS (VmHWM, reset first). Baseline: a bare Express
  + multer route holding the file in memory and inserting it as one \`bytea\`.
- **§5 CPU rows**: CPU time from \`/proc\` (user + system, reaped children included). Text
  layer: ten passes of the same 20-page document in the bench process, against ten \`pdftotext\`
  runs whose process time is counted (start-up included). Uploads: the receiving API process
  alone, and with every PostgreSQL process, from the first send to the last answer, divided by
  the MB stored; the service's PostgreSQL window also holds the worker's reads of the uploads
  it picks up, so the API row is the one to compare.
- **§6 CPU rows**: CPU time of the bench's child process and everything below it (both
  Chromium instances; the idle one adds next to nothing) over one measurement, per page.
- **§5 Documents, §6 Webpages, §7 Tokens**: see the notes printed with those rows.
- **§10 Citations**: a generated corpus where every expected value is written in its source (10
  three-page text PDFs with the values drawn at known places, 10 typed texts with written dates
  and German-style numbers), each with one planted value the source does not contain; the share
  of written values grounded, of planted ones flagged, and the IoU of each PDF value's box with
  the rectangle it was drawn in. Repeated values: a one-page statement whose twelve rows repeat
  their amounts (eight are 2.00), descriptions and dates, with digits inside a date, an account
  and a phone number above the table; the stand-in answers with the rows, and each of the 60
  values' box is scored against its own cell (mean IoU, and how many reach 0.5). Long arrays: a
  table of 100, 500 and 2,000 rows through the continuation of cut answers. Cost: one
  extraction of a text PDF and of a scanned page with and without citations (tokens; wall time
  of preparation, OCR, the call and the citations).
- **§9 Data size**: one account with 1,000,000 extractions (100,000 with \`--quick\`) and one
  with 1,000 in the same database, written in bulk with \`generate_series\` (30 days, 97%
  completed, five schemas) and vacuumed; 200 sequential requests per query and account (one
  client, so each figure is a request's own latency), one to each account in turn. The
  baseline column is the 1,000-row account; the ratio is the growth.
- **§11 PgBouncer**: asynchronous creates from 20 closed-loop clients for 8 s (3 s with
  \`--quick\`) through a second API process whose queries go through Debian's PgBouncer
  (transaction pooling, 20 server connections, \`DB_PREPARED_STATEMENTS=false\`); baseline: the
  same creates through the first API process, straight to PostgreSQL.
- **§12 S3 store**: a second API process with \`BLOB_STORE=s3\`, against s3rver (an S3-protocol
  server on local disk) in its own process, beside the first API process on the default
  PostgreSQL store; the worker is stopped meanwhile. Ingestion: §5's uploads (20 MB PDFs, 12 of
  them, 4 at a time; 5 MB and 4 with \`--quick\`), MB/s and the API's peak RSS. Worker read:
  those uploads streamed back 4 at a time through \`createBlobStore(…).get(ref)\` configured as
  the worker's, MB/s. Baseline: the PostgreSQL store (1 MiB \`blob_chunks\` rows).
- **§13 Office files and email** (scripts/bench/sections/office.ts): one API and one worker
  process as \`npm start\` runs them, the model stand-in in oracle mode in the benchmark's own
  process (so every request is read there; it answers at once), a new account for each
  measurement so that nothing is reused. Sheet: the \`price-lists\` data set's 2,000-row XLSX
  uploaded as a \`spreadsheet\`; the tokens of the source text the model calls carry (each call's
  once), against the same sheet saved as CSV by LibreOffice (values as shown), the floor for any
  text form of it. Email: a message composed with the data sets' PDF invoice, DOCX invoice and
  25-row XLSX price list attached, uploaded as an \`email\` with a synchronous create (waiting,
  then reading the record, until it is final); wall time and every token of every model call,
  against the same three files uploaded one after another.
- **§15 One long document across workers** (scripts/bench/sections/windows.ts): one API and one
  or two worker processes (\`PREP_THREADS=1\` each, so a process is one core's preparation), the
  model stand-in in oracle mode answering each call after a fixed delay (a model's latency).
  One long text PDF (a statement written by pdf-lib) is extracted at a time, with page windows
  (\`SPLIT_PAGES=40\`, docs/scaling.md#one-large-document) and as one job (a split longer than
  the document), each with one and with two worker processes: the wall time from the create to
  the completed record, the worker processes' CPU time per page and their largest peak RSS.
  \`MODEL_MAX_INPUT_TOKENS=20000\`, so the one job's chunks are several calls too.
- **§16 Splitting bundles** (scripts/bench/sections/split.ts): one API and one worker process
  as \`npm start\` runs them, the model stand-in in oracle mode in the benchmark's own process,
  answering at once; it classifies each page by its title (docs/split.md), so the figures are
  the service's own: what reaches the classification (each page's first line, OCR text for a
  scan) and how the pages become documents. Every bundle of \`datasets/bundles\` (21 PDFs of 2
  to 6 invoices and statements, 289 pages, seven bundles with eight scanned pages, one of 113
  pages) uploaded with \`split\`, one at a time (after one bundle not counted, while the worker
  loads its code), twice: the classes without schemas (the split alone) and each with its data
  set's schema (a child extraction per document). A boundary is a page where a document
  starts, page 1 not counted; precision and recall over all bundles; class accuracy is the
  share of true documents whose first page the split put in a document of their class. Pages
  per second are the bundles' pages over the sum of the parents' own times
  (\`updatedAt − createdAt\` of the final record). The review row: an invoice child (its
  schema sends every extraction to review) approved with one correction, then
  \`xt reviews export\` run until its case file exists; each export is a new Node process, as
  a person runs it.

## Reproduce

\`\`\`sh
npm ci
apt-get install -y haproxy poppler-utils chromium redis-server   # Debian; what the run calls
npm run bench                 # full run, about 10–15 minutes on 2 cores; writes this file, appends to the history
npm run bench -- --quick      # short phases, one repetition, under 3 minutes
npm run bench -- --sections 1,2 --reps 5          # only some sections
npm run bench -- --servers environment            # use DATABASE_URL / REDIS_URL instead
\`\`\`

This run: \`${info.command}\`. With \`--servers environment\` a shared PostgreSQL's CPU is
counted from the sessions serving the benchmark's own databases only, and Redis's whole process.
`;
}
