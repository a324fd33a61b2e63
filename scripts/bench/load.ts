/**
 * `npm run load [-- --seconds 60 --rate 20 --apis 2 --workers 2 --model-ms 1000]`
 * `npm run load -- --url http://127.0.0.1:3000 --key sk_live_…   (an already running service)`
 *
 * Starts PostgreSQL, Redis, the model stand-in, API processes behind HAProxy and worker
 * processes on this machine (or uses the service at --url), then for --seconds runs a mix the
 * way production clients behave: asynchronous creates at --rate per second, each with an
 * Idempotency-Key and retried with the same key after a 429/503/no answer; polling of every
 * accepted extraction until it is final; and list calls. It prints throughput, latency
 * percentiles per kind of request, and every request that did not get a documented answer,
 * and exits 1 when there was one or when an accepted extraction never became final.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { send, type Answer } from './lib/client.ts';
import { undocumentedReason } from '@xt/testkit/faults';
import { percentile } from './lib/stats.ts';
import {
  startApi,
  startHaproxy,
  startModel,
  startServers,
  startWorker,
  Workdir,
  type Proc,
} from './lib/stack.ts';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '20' },
    lists: { type: 'string', default: '2' },
    apis: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    'model-ms': { type: 'string', default: '1000' },
    'duplicate-share': { type: 'string', default: '0.1' },
    servers: { type: 'string', default: 'own' },
    url: { type: 'string' },
    key: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const rate = Number(values.rate);
const listRate = Number(values.lists);
const duplicateShare = Number(values['duplicate-share']);
const started = performance.now();
const log = (line: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

interface Sample {
  kind: 'create' | 'create retry' | 'create duplicate' | 'poll' | 'list';
  answer: Answer;
  at: number;
}
const samples: Sample[] = [];
const undocumented: string[] = [];

function record(kind: Sample['kind'], answer: Answer, expected: number[]): Answer {
  samples.push({ kind, answer, at: performance.now() });
  const reason = undocumentedReason(answer, expected);
  if (reason) {
    undocumented.push(
      `${kind}: ${reason} after ${answer.ms.toFixed(0)} ms${answer.body ? `: ${answer.body.slice(0, 300)}` : ''}`,
    );
  }
  return answer;
}

const workdir = new Workdir();
const procs: Proc[] = [];
let stopServers = async () => {};
let base: string;
let key: string;
try {
  if (values.url) {
    if (!values.key) throw new Error('--url needs --key (a write key of that service)');
    base = values.url.replace(/\/$/, '');
    key = values.key;
  } else {
    log('starting PostgreSQL, Redis, the model stand-in, API and worker processes, HAProxy');
    const servers = await startServers(values.servers === 'environment' ? 'environment' : 'own');
    stopServers = () => servers.stop();
    const db = await servers.createDatabase('load');
    const model = await startModel(workdir, Number(values['model-ms']));
    procs.push(model);
    const env = {
      databaseUrl: db.url,
      redisUrl: servers.redisUrl,
      queuePrefix: `load${process.pid}`,
      modelUrl: model.url,
    };
    const apis = [];
    for (let i = 1; i <= Number(values.apis); i++)
      apis.push(await startApi(workdir, `api-${i}`, env));
    procs.push(...apis);
    for (let i = 1; i <= Number(values.workers); i++)
      procs.push(await startWorker(workdir, `worker-${i}`, env));
    const haproxy = await startHaproxy(
      workdir,
      apis.map((a) => a.url),
    );
    procs.unshift(haproxy);
    base = haproxy.url;
    const handle = createDb(db.url, { max: 1 });
    key = (await createKey(handle.db, { accountName: 'load', scope: 'write' })).key;
    await handle.close();
  }
  await runLoad(base, key);
} catch (error) {
  workdir.markFailed();
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const proc of procs) await proc.stop();
  await stopServers().catch(() => undefined);
  workdir.cleanup();
}

async function runLoad(base: string, key: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const schema = await send(`${base}/v1/schemas`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: JSON.stringify({
      name: 'Load invoice',
      structure: {
        type: 'object',
        properties: { vendor: { type: 'string' }, total: { type: 'number' } },
      },
    }),
  });
  if (schema.status !== 201 && schema.status !== 200) {
    throw new Error(`creating the schema answered ${schema.status}: ${schema.body}`);
  }
  const schemaId = (JSON.parse(schema.body) as { data: { id: string } }).data.id;

  const ids = new Set<string>();
  const idsByKey = new Map<string, Set<string>>();
  const final = new Map<string, string>();
  const pending: Promise<void>[] = [];
  let retriesGivenUp = 0;

  /** One client's submission: the same key on every retry, as a careful client does. */
  async function submit(n: number, duplicate: boolean): Promise<void> {
    const idempotencyKey = randomUUID();
    const body = JSON.stringify({
      schema_id: schemaId,
      type: 'text',
      source: `Invoice ${n} from ACME Corporation. Total due ${n % 1000}.50 EUR.`,
    });
    const once = (kind: Sample['kind']) =>
      send(`${base}/v1/extractions`, {
        method: 'POST',
        headers: { ...headers, prefer: 'respond-async', 'idempotency-key': idempotencyKey },
        body,
        timeoutMs: 30_000,
      }).then((a) => record(kind, a, [200, 202]));
    const sends = [once('create')];
    if (duplicate) sends.push(once('create duplicate'));
    for (const first of sends) {
      let answer = await first;
      for (let attempt = 1; attempt <= 5 && !accepted(answer); attempt++) {
        if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) break;
        const after = Number(answer.headers.get('retry-after') ?? 0);
        await sleep(after > 0 ? after * 1000 : 250 * 2 ** attempt);
        answer = await once('create retry');
      }
      if (!accepted(answer)) {
        retriesGivenUp += 1;
        continue;
      }
      const id = (JSON.parse(answer.body) as { data: { id: string } }).data.id;
      const forKey = idsByKey.get(idempotencyKey) ?? new Set<string>();
      forKey.add(id);
      idsByKey.set(idempotencyKey, forKey);
      if (!ids.has(id)) {
        ids.add(id);
        pending.push(poll(id));
      }
    }
  }

  const accepted = (a: Answer) => a.status === 200 || a.status === 202;

  async function poll(id: string): Promise<void> {
    const deadline = performance.now() + (seconds + 180) * 1000;
    while (performance.now() < deadline) {
      await sleep(1000);
      const answer = record(
        'poll',
        await send(`${base}/v1/extractions/${id}`, { headers, timeoutMs: 30_000 }),
        [200],
      );
      if (answer.status !== 200) continue;
      const status = (JSON.parse(answer.body) as { data: { status: string } }).data.status;
      if (status === 'completed' || status === 'failed') {
        final.set(id, status);
        return;
      }
    }
  }

  async function lists(stopAt: number): Promise<void> {
    let n = 0;
    while (performance.now() < stopAt) {
      const page = 1 + (n++ % 5);
      const filter = n % 3 === 0 ? '&status=completed' : '';
      record(
        'list',
        await send(`${base}/v1/extractions?limit=20&page=${page}${filter}`, {
          headers,
          timeoutMs: 30_000,
        }),
        [200],
      );
      await sleep(1000 / Math.max(0.1, listRate));
    }
  }

  log(
    `running for ${seconds} s: ${rate} creates/s (${duplicateShare * 100}% sent twice with the same key), polling, ${listRate} lists/s`,
  );
  const t0 = performance.now();
  const stopAt = t0 + seconds * 1000;
  const listing = lists(stopAt);
  const submissions: Promise<void>[] = [];
  // Open loop: submissions start on schedule whatever the answers take, as independent clients do.
  for (let n = 0; performance.now() < stopAt; n++) {
    submissions.push(submit(n, Math.random() < duplicateShare));
    const next = t0 + ((n + 1) * 1000) / rate;
    await sleep(Math.max(0, next - performance.now()));
    if (n % Math.max(1, rate * 10) === 0 && n > 0) {
      log(`${n} submitted, ${final.size} final`);
    }
  }
  await Promise.all(submissions);
  await listing;
  const loadSeconds = (performance.now() - t0) / 1000;
  log(`load over; waiting for ${ids.size - final.size} extractions to finish`);
  await Promise.all(pending);
  const drainSeconds = (performance.now() - t0) / 1000 - loadSeconds;

  report({ loadSeconds, drainSeconds, ids, final, idsByKey, retriesGivenUp });
}

function report(r: {
  loadSeconds: number;
  drainSeconds: number;
  ids: Set<string>;
  final: Map<string, string>;
  idsByKey: Map<string, Set<string>>;
  retriesGivenUp: number;
}): void {
  const completed = [...r.final.values()].filter((s) => s === 'completed').length;
  const failed = r.final.size - completed;
  const split = [...r.idsByKey.values()].filter((set) => set.size > 1).length;
  console.log('\nThroughput');
  console.log(
    `  requests answered        ${(samples.length / (r.loadSeconds + r.drainSeconds)).toFixed(1)}/s over ${(r.loadSeconds + r.drainSeconds).toFixed(0)} s`,
  );
  console.log(
    `  extractions accepted     ${r.ids.size} (${(r.ids.size / r.loadSeconds).toFixed(1)}/s)`,
  );
  console.log(
    `  final                    ${completed} completed, ${failed} failed, ${r.ids.size - r.final.size} never final`,
  );
  console.log(`  drain after the load     ${r.drainSeconds.toFixed(1)} s`);
  console.log('\nLatency by kind (ms)            n     p50     p90     p99     max');
  for (const kind of ['create', 'create retry', 'create duplicate', 'poll', 'list'] as const) {
    const ms = samples.filter((s) => s.kind === kind).map((s) => s.answer.ms);
    if (ms.length === 0) continue;
    const f = (p: number) => percentile(ms, p).toFixed(0).padStart(7);
    console.log(
      `  ${kind.padEnd(22)} ${String(ms.length).padStart(7)} ${f(50)} ${f(90)} ${f(99)} ${Math.max(
        ...ms,
      )
        .toFixed(0)
        .padStart(7)}`,
    );
  }
  const statuses = new Map<string, number>();
  for (const s of samples) {
    const k = `${s.kind} ${s.answer.status || 'no answer'}`;
    statuses.set(k, (statuses.get(k) ?? 0) + 1);
  }
  console.log('\nAnswers');
  for (const [k, n] of [...statuses].sort()) console.log(`  ${k.padEnd(28)} ${n}`);
  console.log('\nIdempotency');
  console.log(
    split === 0
      ? `  every key named one extraction (${r.idsByKey.size} keys)`
      : `  ${split} of ${r.idsByKey.size} keys created more than one extraction (Idempotency-Key not honoured by this build)`,
  );
  if (r.retriesGivenUp > 0) console.log(`  ${r.retriesGivenUp} submissions given up after retries`);
  console.log(`\nUndocumented answers: ${undocumented.length}`);
  for (const line of undocumented.slice(0, 30)) console.log(`  ${line}`);
  if (undocumented.length > 30) console.log(`  … and ${undocumented.length - 30} more`);
  if (undocumented.length > 0 || r.ids.size !== r.final.size) process.exitCode = 1;
}
