/**
 * Issue #36 item 6: a server that works one request at a time (llama.cpp with one slot, which it
 * tells as `total_slots`), 1 s a call, given a backlog of 40 extractions by two worker
 * processes at once. A model-bound service can go no faster than its server's slots; the figure
 * that matters is how busy the slot stays, with nothing queued at the server and nothing
 * abandoned there.
 *
 *   npx tsx --conditions=@xt/source scripts/bench/slots.ts [--extractions 40] [--call-ms 1000]
 */
import { parseArgs } from 'node:util';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { startModelStandIn } from '@xt/testkit';
import { startApi, startServers, startWorker, Workdir, type Proc } from './lib/stack.ts';

const { values } = parseArgs({
  options: {
    extractions: { type: 'string', default: '40' },
    'call-ms': { type: 'string', default: '1000' },
  },
});
const COUNT = Number(values.extractions);
const CALL_MS = Number(values['call-ms']);

const starts: number[] = [];
const server = await startModelStandIn({
  dialect: { server: 'llamacpp', slots: 1 },
  models: ['local'],
  defaultBehaviour: {
    pick: () => {
      starts.push(Date.now());
      return undefined;
    },
    output: { total: 1 },
    delayMs: CALL_MS,
  },
});
const endpoints = JSON.stringify([
  { name: 'local', kind: 'openai-compatible', baseUrl: server.url, models: [{ id: 'local' }] },
]);
const workdir = new Workdir();
const own = await startServers('own');
const procs: Proc[] = [];
try {
  const db = await own.createDatabase('slots');
  const env = {
    databaseUrl: db.url,
    redisUrl: own.redisUrl,
    queuePrefix: 'benchslots',
    modelUrl: '',
  };
  const extra = { MODEL_ENDPOINTS: endpoints, CACHE_MAX_AGE_SECONDS: '0' };
  const api = await startApi(workdir, 'api', env, extra);
  procs.push(api);
  procs.push(await startWorker(workdir, 'worker-1', env, extra));
  procs.push(await startWorker(workdir, 'worker-2', env, extra));
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
  // One extraction first: the model is probed once, before the backlog.
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
      if (!page.data.data.some((r) => r.status === 'pending' || r.status === 'processing')) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  await create(0);
  await settled();
  starts.length = 0;
  server.reset();
  const began = Date.now();
  await Promise.all(Array.from({ length: COUNT }, (_, i) => create(i + 1)));
  await settled();
  const wall = Date.now() - began;
  const first = Math.min(...starts);
  const last = Math.max(...starts) + CALL_MS;
  const busy = (starts.length * CALL_MS) / (last - first);
  console.log(
    `| Extractions | Calls | Wall (s) | Slot busy while the backlog lasted | Most queued at the server | Abandoned |`,
  );
  console.log(`| ---: | ---: | ---: | ---: | ---: | ---: |`);
  console.log(
    `| ${COUNT} | ${server.requests.length} | ${(wall / 1000).toFixed(1)} | ${(busy * 100).toFixed(1)}% | ${server.stats.maxQueued} | ${server.stats.abandoned} |`,
  );
} finally {
  for (const p of procs.reverse()) await p.stop();
  await own.stop();
  await server.close();
  workdir.cleanup();
}
