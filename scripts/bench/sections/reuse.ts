/**
 * 14. Paying once (run as a child process): PostgreSQL, Redis, one API and one worker process as
 * `npm start` runs them, and the model stand-in in this process in oracle mode (answering at once
 * from what reached it) with its Files and Batches interface. Measures:
 * - the same corpus of documents (the data sets' file cases plus generated text-PDF invoices)
 *   extracted twice by one account: the second run's model tokens and wall time against the
 *   first's (the second is answered by reuse);
 * - the same documents in a new account with `priority: "batch"`: the sum of the records'
 *   `usage.estimatedCostUsd` against the first (standard) run's;
 * - the reuse look-up on a miss (`findReusableForSchema`, as a create runs it) against accounts
 *   of 10,000 and 100,000 extractions written in bulk, p50 and p95, beside a `select 1` round
 *   trip on the same connection; and its plan (EXPLAIN ANALYZE).
 * Prints `RESULT`.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { findReusableForSchema } from '@xt/extractions';
import { seedExtractions } from '@xt/testkit';
import { mixedPdf } from '@xt/testkit/fixtures';
import { startModelStandIn } from '@xt/testkit/model-stand-in';
import { emitResult, progress } from '../lib/child.ts';
import { REPO_ROOT, startApi, startServers, startWorker, Workdir } from '../lib/stack.ts';
import { percentile } from '../lib/stats.ts';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '4' },
    sizes: { type: 'string', default: '10000,100000' },
    lookups: { type: 'string', default: '2000' },
  },
});
const DOCS = Number(values.docs);
const CONCURRENCY = Number(values.concurrency);
const SIZES = values.sizes.split(',').map(Number);
const LOOKUPS = Number(values.lookups);
const sets = join(REPO_ROOT, 'datasets');

/** A run of the corpus: its wall time, the records' tokens and cost, how many were reused. */
interface CorpusRun {
  seconds: number;
  tokens: number;
  cachedInputTokens: number;
  costUsd: number;
  savedUsd: number;
  reused: number;
  completed: number;
  /** each document's output (as JSON) and tokens, in corpus order */
  outputs: string[];
  perDoc: number[];
  modelRequests: number;
  batchLines: number;
}

export interface ReuseResult {
  docs: number;
  /** look-ups per size and repetition (three repetitions) */
  lookups: number;
  kinds: Record<string, number>;
  first: CorpusRun;
  second: CorpusRun;
  batch: CorpusRun;
  /** batch outputs that differ from the standard run's */
  differ: number;
  lookup: { rows: number; p50: number[]; p95: number[]; selectP50: number[]; plan: string }[];
}

const TYPES: Record<string, string> = {
  '.pdf': 'pdf',
  '.jpg': 'image',
  '.docx': 'document',
  '.xlsx': 'spreadsheet',
  '.eml': 'email',
};

interface Doc {
  dataset: string;
  name: string;
  type: string;
  bytes: Buffer;
}

/** The data sets' file cases, then generated invoices up to `count` (each document distinct). */
async function corpus(count: number): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (const dataset of (await readdir(sets)).sort()) {
    for (const name of (await readdir(join(sets, dataset, 'cases')).catch(() => [])).sort()) {
      const type = TYPES[extname(name)];
      if (!type) continue; // webpages: addresses of a site, not files
      docs.push({ dataset, name, type, bytes: await readFile(join(sets, dataset, 'cases', name)) });
    }
  }
  for (let n = 1; docs.length < count; n++) {
    const text = [
      `INVOICE INV-2027-${String(n).padStart(4, '0')}`,
      `Issue date: 2027-01-${String((n % 28) + 1).padStart(2, '0')}`,
      'Seller: Northwind Office Supply Ltd, 12 Quay Street, Leith',
      `Buyer: Customer ${n} GmbH`,
      `Item: Paper A4, quantity ${n}, unit price 4.50 EUR`,
      `Total due: ${(n * 4.5).toFixed(2)} EUR`,
    ].join('\n');
    docs.push({
      dataset: 'invoices-text',
      name: `generated-${n}.pdf`,
      type: 'pdf',
      bytes: await mixedPdf([{ text }]),
    });
  }
  return docs.slice(0, count);
}

const standIn = await startModelStandIn({
  port: 0,
  defaultBehaviour: { oracle: true },
  batch: { delayMs: 0 },
});
const workdir = new Workdir();
const servers = await startServers('own');
const procs: { stop(): Promise<void> }[] = [];
try {
  const db = await servers.createDatabase('reuse');
  const env = {
    databaseUrl: db.url,
    redisUrl: servers.redisUrl,
    queuePrefix: 'benchreuse',
    modelUrl: standIn.url,
  };
  progress('§14 starting an API and a worker');
  const [api, worker] = await Promise.all([
    startApi(workdir, 'api', env),
    // Batch rounds looked at every 200 ms: the stand-in answers a batch at once.
    startWorker(workdir, 'worker', env, { BATCH_POLL_MS: '200' }),
  ]);
  procs.push(api, worker);
  const handle = createDb(db.url, { max: 1 });

  const account = async (name: string) => {
    const { key } = await createKey(handle.db, { accountName: name, scope: 'write' });
    const auth = { authorization: `Bearer ${key}` };
    const schemaIds = new Map<string, string>();
    for (const dataset of [
      'invoices-text',
      'invoices-scanned',
      'invoices-docx',
      'invoices-email',
    ].concat(['price-lists', 'statements'])) {
      const res = await fetch(`${api.url}/v1/schemas`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: await readFile(join(sets, dataset, 'schema.json'), 'utf8'),
      });
      schemaIds.set(dataset, ((await res.json()) as { data: { id: string } }).data.id);
    }
    return { auth, schemaIds };
  };
  type Account = Awaited<ReturnType<typeof account>>;

  type Rec = {
    id: string;
    status: string;
    output?: unknown;
    result?: unknown;
    totalTokens: number;
    usage?: { estimatedCostUsd: number; cachedInputTokens: number };
    reused?: { extractionId: string };
    error?: unknown;
  };

  /** One document: created asynchronously, its record read until final. */
  const extract = async (who: Account, doc: Doc, priority: string): Promise<Rec> => {
    const form = new FormData();
    form.set('schema_id', who.schemaIds.get(doc.dataset)!);
    form.set('type', doc.type);
    form.set('priority', priority);
    form.set('source', new Blob([doc.bytes]), doc.name);
    const res = await fetch(`${api.url}/v1/extractions`, {
      method: 'POST',
      headers: { ...who.auth, prefer: 'respond-async' },
      body: form,
    });
    let rec = ((await res.json()) as { data?: Rec }).data;
    if (!rec) throw new Error(`${doc.name}: create answered ${res.status}`);
    while (['pending', 'processing'].includes(rec.status)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const again = await fetch(`${api.url}/v1/extractions/${rec.id}`, { headers: who.auth });
      rec = ((await again.json()) as { data: Rec }).data;
    }
    if (rec.status !== 'completed')
      progress(`§14 ${doc.dataset}/${doc.name}: ${rec.status} ${JSON.stringify(rec.error)}`);
    return rec;
  };

  /** The corpus through the API, `CONCURRENCY` documents at a time. */
  const run = async (who: Account, docs: Doc[], priority: string): Promise<CorpusRun> => {
    const requests = standIn.requests.length;
    const lines = standIn.batch.lines.length;
    const records: Rec[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < docs.length) {
          const n = next++;
          records[n] = await extract(who, docs[n]!, priority);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const completed = records.filter((r) => r.status === 'completed');
    const { rows } = await handle.pool.query<{ saved: number }>(
      'select coalesce(sum(saved_usd), 0)::float8 as saved from extractions where id = any($1::uuid[])',
      [records.map((r) => r.id)],
    );
    return {
      seconds,
      tokens: records.reduce((n, r) => n + r.totalTokens, 0),
      cachedInputTokens: records.reduce((n, r) => n + (r.usage?.cachedInputTokens ?? 0), 0),
      costUsd: records.reduce((n, r) => n + (r.usage?.estimatedCostUsd ?? 0), 0),
      savedUsd: Number(rows[0]?.saved ?? 0),
      reused: records.filter((r) => r.reused).length,
      completed: completed.length,
      outputs: records.map((r) => JSON.stringify(r.output ?? r.result ?? null)),
      perDoc: records.map((r) => r.totalTokens),
      modelRequests: standIn.requests.length - requests,
      batchLines: standIn.batch.lines.length - lines,
    };
  };

  const docs = await corpus(DOCS);
  const kinds: Record<string, number> = {};
  for (const d of docs) kinds[d.dataset] = (kinds[d.dataset] ?? 0) + 1;
  progress(`§14 ${docs.length} documents: ${JSON.stringify(kinds)}`);

  const a = await account('bench-reuse');
  progress('§14 first run (standard)');
  const first = await run(a, docs, 'standard');
  progress(`§14 first run: ${JSON.stringify({ ...first, outputs: undefined, perDoc: undefined })}`);
  progress('§14 second run, same account and documents');
  const second = await run(a, docs, 'standard');
  progress(
    `§14 second run: ${JSON.stringify({ ...second, outputs: undefined, perDoc: undefined })}`,
  );
  const changed = docs.filter((_, i) => second.outputs[i] !== first.outputs[i]).length;
  progress(`§14 second run outputs that differ from the first's: ${changed}`);
  progress('§14 the same documents with priority batch, in a new account');
  const batch = await run(await account('bench-batch'), docs, 'batch');
  const brief = (r: CorpusRun) => JSON.stringify({ ...r, outputs: undefined, perDoc: undefined });
  progress(`§14 batch run: ${brief(batch)}`);
  const differ = docs.flatMap((d, i) =>
    batch.outputs[i] === first.outputs[i] ? [] : [`${d.dataset}/${d.name}`],
  );
  progress(`§14 batch outputs that differ from the standard run's: ${differ.join(', ') || 'none'}`);
  for (const [i, d] of docs.entries())
    if (batch.perDoc[i] !== first.perDoc[i])
      progress(
        `§14 tokens ${d.dataset}/${d.name}: standard ${first.perDoc[i]}, batch ${batch.perDoc[i]}`,
      );
  await handle.close();

  const lookup = await measureLookup(db.url);
  // The outputs are compared above; the report takes the figures.
  for (const r of [first, second, batch]) {
    r.outputs = [];
    r.perDoc = [];
  }
  emitResult({
    docs: docs.length,
    lookups: LOOKUPS,
    differ: differ.length,
    kinds,
    first,
    second,
    batch,
    lookup,
  } satisfies ReuseResult);
} finally {
  for (const p of procs.reverse()) await p.stop();
  await servers.stop();
  await standIn.close();
  workdir.cleanup();
}

/**
 * The reuse look-up a create runs on a miss, against accounts of each size: completed rows with
 * keys, as weeks of use leave them, and a key none has. Sequential, on one connection, so each
 * figure is one look-up's own latency; `select 1` on the same connection is the round trip floor.
 */
async function measureLookup(url: string): Promise<ReuseResult['lookup']> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const handle = createDb(url, { max: 1 });
  const out: ReuseResult['lookup'] = [];
  try {
    for (const rows of SIZES) {
      progress(`§14 seeding an account of ${rows.toLocaleString('en')} extractions`);
      const { accountId } = await createKey(handle.db, {
        accountName: `lookup-${rows}`,
        scope: 'write',
      });
      await seedExtractions(pool, accountId, rows, 7);
      // Every completed row an original with its own key (as reuse leaves them).
      await pool.query(
        `update extractions set reuse_key = sha256(id::text::bytea)
         where account_id = $1 and status = 'completed'`,
        [accountId],
      );
      const {
        rows: [schema],
      } = await pool.query<{ id: string }>(
        `insert into schemas (account_id, name, structure)
         select $1, 'Invoice schema 1', schema_structure
         from extractions where account_id = $1 limit 1
         returning id`,
        [accountId],
      );
      await pool.query('vacuum analyze extractions');
      const lookup = (key: Buffer) =>
        findReusableForSchema(handle.db, {
          accountId,
          key,
          maxAgeSeconds: 604_800,
          schemaId: schema!.id,
        });
      for (let i = 0; i < 200; i++) await lookup(randomBytes(32));
      const p50: number[] = [];
      const p95: number[] = [];
      const selectP50: number[] = [];
      for (let rep = 0; rep < 3; rep++) {
        const ms: number[] = [];
        const floor: number[] = [];
        for (let i = 0; i < LOOKUPS; i++) {
          const key = randomBytes(32);
          let t0 = performance.now();
          const hit = await lookup(key);
          ms.push(performance.now() - t0);
          if (hit) throw new Error('a random key found an answer');
          t0 = performance.now();
          await handle.pool.query('select 1');
          floor.push(performance.now() - t0);
        }
        p50.push(percentile(ms, 50));
        p95.push(percentile(ms, 95));
        selectP50.push(percentile(floor, 50));
      }
      const plan = await pool.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers, costs off, timing on)
         select e.id from extractions e
         where e.account_id = $1 and e.reuse_key = $2 and e.status = 'completed'
           and e.reused_from is null and e.finished_at > now() - make_interval(secs => 604800)
           and e.schema_structure::text = (select s.structure::text from schemas s
                                            where s.account_id = $1 and s.id = $3)
         order by e.finished_at desc limit 1`,
        [accountId, randomBytes(32), schema!.id],
      );
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      progress(
        `§14 lookup at ${rows} rows: p50 ${p50.join('/')} ms, p95 ${p95.join('/')} ms\n${text}`,
      );
      out.push({ rows, p50, p95, selectP50, plan: text });
    }
  } finally {
    await handle.close();
    await pool.end();
  }
  return out;
}
