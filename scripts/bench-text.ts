/**
 * Text extraction throughput and service overhead, with a model stand-in that takes 1 s per call.
 *
 *   npx tsx scripts/bench-text.ts [--jobs 1000] [--latency-samples 40] [--model-ms 1000]
 *
 * Runs one API process and ONE worker process against DATABASE_URL / REDIS_URL (default: the
 * local servers on 5432 / 6379) in a scratch database, then prints:
 *  - completed extractions per second for one worker process (async submissions, queue full);
 *  - the median and p95 latency the service adds to a synchronous create (wall time minus the
 *    model stand-in's own time), measured one request at a time on an idle system.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { freePort } from '@xt/embedded';
import { startAppProcess, startModelStandIn } from '@xt/testkit';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '1000' },
    'latency-samples': { type: 'string', default: '40' },
    'model-ms': { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '200' },
  },
});
const jobs = Number(values.jobs);
const samples = Number(values['latency-samples']);
const modelMs = Number(values['model-ms']);

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const dbName = `xt_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
const databaseUrl = dbUrl.toString();
const prefix = `bench${randomBytes(3).toString('hex')}`;

const model = await startModelStandIn({ defaultBehaviour: { delayMs: modelMs } });
const port = await freePort();
const common = {
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  QUEUE_PREFIX: prefix,
  LOG_LEVEL: 'warn',
};
const apiProc = await startAppProcess(
  'apps/api/src/main.ts',
  {
    ...common,
    LOG_LEVEL: 'info',
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMIT_MAX: '1000000',
  },
  'API listening',
);
const workerProc = await startAppProcess(
  'apps/worker/src/main.ts',
  {
    ...common,
    LOG_LEVEL: 'info',
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: model.url,
    WORKER_CONCURRENCY: values.concurrency,
  },
  'worker started',
);
const base = `http://127.0.0.1:${port}`;

const handle = createDb(databaseUrl, { max: 2 });
const { key } = await createKey(handle.db, { accountName: 'bench', scope: 'write' });
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const schema = (await (
  await fetch(`${base}/v1/schemas`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'bench',
      structure: {
        type: 'object',
        properties: { vendor: { type: 'string' }, total: { type: 'number' } },
      },
    }),
  })
).json()) as { data: { id: string } };

const body = (i: number) =>
  JSON.stringify({
    schema_id: schema.data.id,
    type: 'text',
    source: `Invoice ${i} from ACME, total ${i}.00 EUR`,
  });

// Overhead: one synchronous request at a time.
const added: number[] = [];
for (let i = 0; i < samples; i++) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/extractions`, { method: 'POST', headers, body: body(i) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`sync create answered ${res.status}`);
  added.push(performance.now() - t0 - modelMs);
}
added.sort((a, b) => a - b);
const pct = (p: number) => added[Math.min(added.length - 1, Math.floor((p / 100) * added.length))]!;

// Throughput: submit everything asynchronously, then wait for the last completion.
const start = performance.now();
const submitters = 16;
let next = 0;
await Promise.all(
  Array.from({ length: submitters }, async () => {
    while (next < jobs) {
      const i = next++;
      const res = await fetch(`${base}/v1/extractions`, {
        method: 'POST',
        headers: { ...headers, prefer: 'respond-async' },
        body: body(i),
      });
      await res.arrayBuffer();
      if (res.status !== 202) throw new Error(`async create answered ${res.status}`);
    }
  }),
);
const submitted = performance.now();
const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
for (;;) {
  const r = await pool.query(
    `select count(*) filter (where status = 'completed')::int as done, count(*) filter (where status = 'failed')::int as failed from extractions`,
  );
  const { done, failed } = r.rows[0] as { done: number; failed: number };
  if (done + failed >= jobs + samples) {
    if (failed > 0) console.log(`warning: ${failed} failed`);
    break;
  }
  await new Promise((r) => setTimeout(r, 100));
}
const finished = performance.now();
const seconds = (finished - start) / 1000;

console.log(`model latency per call:            ${modelMs} ms`);
console.log(`worker processes / job concurrency: 1 / ${values.concurrency}`);
console.log(
  `jobs:                              ${jobs} (submitted in ${((submitted - start) / 1000).toFixed(1)} s)`,
);
console.log(`throughput, one worker process:    ${(jobs / seconds).toFixed(1)} extractions/s`);
console.log(
  `added latency (sync, idle), n=${samples}: median ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms`,
);

await pool.end();
await handle.close();
await workerProc.stop();
await apiProc.stop();
await model.close();
await admin.query(`drop database ${dbName} with (force)`);
await admin.end();
