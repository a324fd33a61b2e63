/**
 * A server that works one request at a time, 1 s a call, given a backlog of 40 extractions by two
 * worker processes at once, as it tells its slots (llama.cpp's `total_slots`) and as it tells
 * nothing (Ollama at its default parallelism, a generic compatible server: the workers learn
 * the limit from latency, from the default start and from a start of four). A model-bound
 * service can go no faster than its server's slots; the figures that matter are how busy the
 * slot stays and what queued at the server, with nothing abandoned there.
 *
 *   npx tsx --conditions=@xt/source scripts/bench/slots.ts [--extractions 40] [--call-ms 1000]
 */
import { parseArgs } from 'node:util';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { startModelStandIn } from '@xt/testkit';
import type { Dialect } from '@xt/testkit/model-stand-in';
import {
  startApi,
  startServers,
  startWorker,
  Workdir,
  type Proc,
  type Servers,
} from './lib/stack.ts';

const { values } = parseArgs({
  options: {
    extractions: { type: 'string', default: '40' },
    'call-ms': { type: 'string', default: '1000' },
  },
});
const COUNT = Number(values.extractions);
const CALL_MS = Number(values['call-ms']);
/** Calls after which a learned limit is taken to be learned (the queue they met is shown apart). */
const LEARNING = 10;

interface Case {
  name: string;
  dialect: Dialect;
  worker: Record<string, string>;
}

const CASES: Case[] = [
  { name: 'told: 1 slot (`total_slots`)', dialect: { server: 'llamacpp', slots: 1 }, worker: {} },
  { name: 'learned, from the default start (1)', dialect: { slots: 1 }, worker: {} },
  {
    name: 'learned, from a start of 4',
    dialect: { slots: 1 },
    worker: { MODEL_LEARNED_SLOTS_START: '4' },
  },
];

async function run(own: Servers, workdir: Workdir, c: Case, index: number): Promise<string> {
  // when each call reached the server, and when the server ended working it
  const starts: number[] = [];
  const ends: number[] = [];
  const server = await startModelStandIn({
    dialect: c.dialect,
    models: ['local'],
    defaultBehaviour: {
      pick: (request) => {
        if (!request.headers['x-xt-probe']) starts.push(Date.now());
        return undefined;
      },
      output: { total: 1 },
      delayMs: CALL_MS,
      gate: (request) => {
        if (!request.headers['x-xt-probe']) ends.push(Date.now());
        return undefined;
      },
    },
  });
  const endpoints = JSON.stringify([
    { name: 'local', kind: 'openai-compatible', baseUrl: server.url, models: [{ id: 'local' }] },
  ]);
  const procs: Proc[] = [];
  try {
    const db = await own.createDatabase(`slots${index}`);
    const env = {
      databaseUrl: db.url,
      redisUrl: own.redisUrl,
      queuePrefix: `benchslots${index}`,
      modelUrl: '',
    };
    const extra = { MODEL_ENDPOINTS: endpoints, CACHE_MAX_AGE_SECONDS: '0' };
    const api = await startApi(workdir, `api-${index}`, env, extra);
    procs.push(api);
    for (const n of [1, 2])
      procs.push(
        await startWorker(workdir, `worker-${index}-${n}`, env, { ...extra, ...c.worker }),
      );
    const handle = createDb(db.url, { max: 1 });
    const { key } = await createKey(handle.db, { accountName: 'bench-slots', scope: 'write' });
    await handle.close();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const schema = (await (
      await fetch(`${api.url}/v1/schemas`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'Invoice',
          structure: { type: 'object', properties: { total: { type: 'number' } } },
        }),
      })
    ).json()) as { data: { id: string } };
    const create = (i: number) =>
      fetch(`${api.url}/v1/extractions`, {
        method: 'POST',
        headers: { ...headers, prefer: 'respond-async' },
        body: JSON.stringify({
          schema_id: schema.data.id,
          type: 'text',
          source: `Total: ${i}`,
          model: 'local',
        }),
      });
    const settled = async () => {
      for (;;) {
        const page = (await (
          await fetch(`${api.url}/v1/extractions?limit=100`, { headers })
        ).json()) as { data: { data: { status: string }[] } };
        if (!page.data.data.some((r) => r.status === 'pending' || r.status === 'processing'))
          return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    // One extraction first: the model is probed once, before the backlog. It teaches a learned
    // limit its first call too, as a running service's earlier traffic would.
    await create(0);
    await settled();
    starts.length = 0;
    ends.length = 0;
    server.reset();
    const began = Date.now();
    await Promise.all(Array.from({ length: COUNT }, (_, i) => create(i + 1)));
    await settled();
    const wall = Date.now() - began;
    // the slot's working time over the time from the first call's arrival to the last's end
    const busy = (ends.length * CALL_MS) / (Math.max(...ends) - Math.min(...starts));
    const { maxQueued, abandoned, queuedOnArrival } = server.stats;
    const after = Math.max(0, ...queuedOnArrival.slice(LEARNING));
    return `| ${c.name} | ${COUNT} | ${server.requests.length} | ${(wall / 1000).toFixed(1)} | ${(busy * 100).toFixed(1)}% | ${maxQueued} | ${after} | ${abandoned} |`;
  } finally {
    for (const p of procs.reverse()) await p.stop();
    await server.close();
  }
}

const workdir = new Workdir();
const own = await startServers('own');
try {
  const rows: string[] = [];
  for (const [i, c] of CASES.entries()) rows.push(await run(own, workdir, c, i));
  console.log(
    `| Limit | Extractions | Calls | Wall (s) | Slot busy while the backlog lasted | Most queued at the server | Most queued after the first ${LEARNING} calls | Abandoned |`,
  );
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
  for (const row of rows) console.log(row);
} finally {
  await own.stop();
  workdir.cleanup();
}
