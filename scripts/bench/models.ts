/**
 * Issue #36 item 10: one data set through the service on each dialect of the stand-in (oracle
 * mode: it answers only from what reached it), so what a server's dialect costs shows as
 * pipeline recall (should equal the OpenAI path: nothing lost to a 4k window, only more calls),
 * calls and tokens; and what probing each endpoint cost.
 *
 *   npx tsx --conditions=@xt/source scripts/bench/models.ts [--dataset datasets/invoices-text]
 *
 * Starts its own PostgreSQL and Redis, one API and one worker; prints a Markdown table.
 */
import { parseArgs } from 'node:util';
import { createKey } from '@xt/accounts';
import { createDb } from '@xt/db';
import { redisCapabilityStore } from '@xt/model';
import { runEval } from '@xt/sdk/eval';
import { startModelStandIn, type Dialect, type ModelStandIn } from '@xt/testkit';
import { Redis } from 'ioredis';
import { startApi, startServers, startWorker, Workdir, type Proc } from './lib/stack.ts';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'datasets/invoices-text' },
    concurrency: { type: 'string', default: '4' },
  },
});

const DIALECTS: Record<string, Dialect> = {
  openai: {},
  'ollama-4k': { server: 'ollama', contextTokens: 4_096, overflow: 'truncate' },
  'json-object-only': { server: 'vllm', structuredOutput: 'json_object_only' },
  'prose-fence': { server: 'vllm', structuredOutput: 'ignored' },
  'strict-fields': {
    server: 'vllm',
    rejectFields: ['logprobs', 'prompt_cache_key', 'max_completion_tokens'],
    logprobs: false,
  },
  'text-only': { server: 'llamacpp', images: false },
  '4k-text-only-json-object': {
    server: 'llamacpp',
    contextTokens: 4_096,
    structuredOutput: 'json_object_only',
    images: false,
  },
};

const progress = (line: string) => process.stderr.write(`${line}\n`);
const servers: Record<string, ModelStandIn> = {};
for (const [name, dialect] of Object.entries(DIALECTS))
  servers[name] = await startModelStandIn({
    dialect,
    defaultBehaviour: { oracle: true },
    models: [name],
  });
const endpoints = Object.entries(servers).map(([name, server]) => ({
  name,
  // The OpenAI row is the reference: its dialect taken at its word, as for api.openai.com.
  kind: name === 'openai' ? 'openai' : 'openai-compatible',
  baseUrl: server.url,
  apiKey: 'bench',
  models: [{ id: name, ...(name === 'openai' ? { default: true } : {}) }],
}));

const workdir = new Workdir();
const own = await startServers('own');
const procs: Proc[] = [];
try {
  const db = await own.createDatabase('models');
  const env = {
    databaseUrl: db.url,
    redisUrl: own.redisUrl,
    queuePrefix: 'benchmodels',
    modelUrl: '',
  };
  const extra = { MODEL_ENDPOINTS: JSON.stringify(endpoints), CACHE_MAX_AGE_SECONDS: '0' };
  const api = await startApi(workdir, 'api', env, extra);
  procs.push(api, await startWorker(workdir, 'worker', env, extra));
  const handle = createDb(db.url, { max: 1 });
  const { key } = await createKey(handle.db, { accountName: 'bench-models', scope: 'write' });
  await handle.close();

  progress(`running ${values.dataset} on ${Object.keys(servers).length} dialects`);
  let out = '';
  const started = Date.now();
  const code = await runEval(
    [
      '--dataset',
      values.dataset,
      '--models',
      Object.keys(servers).join(','),
      '--base-url',
      api.url,
      '--key',
      key,
      '--concurrency',
      values.concurrency,
    ],
    {
      cwd: process.cwd(),
      stdout: { write: (text: string) => ((out += text), true) },
      stderr: { write: (text: string) => (process.stderr.write(text), true) },
    } as never,
  );
  progress(`eval exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const redis = new Redis(own.redisUrl);
  const store = redisCapabilityStore(redis, '{benchmodels}', 60);
  console.log(`\n### ${values.dataset}: each dialect against the OpenAI path\n`);
  console.log('| Dialect | Calls | Probe calls | Probe tokens | Found |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const [name, server] of Object.entries(servers)) {
    const found = await store.get(name, name);
    const c = found?.capabilities;
    const what = c
      ? `${c.structuredOutput}, images ${c.images ? 'yes' : 'no'}, logprobs ${c.logprobs ? 'yes' : 'no'}, context ${c.contextTokens ?? '?'}`
      : 'OpenAI (not probed)';
    console.log(
      `| ${name} | ${server.requests.length} | ${server.probes.length} | ${found?.tokensSpent ?? 0} | ${what} |`,
    );
  }
  redis.disconnect();
  // The eval's own side-by-side table (recall, tokens, latency, failures), last.
  const side = out.lastIndexOf('# Models side by side');
  console.log(side >= 0 ? out.slice(side) : out);
} finally {
  for (const p of procs.reverse()) await p.stop();
  await own.stop();
  await Promise.all(Object.values(servers).map((s) => s.close()));
  workdir.cleanup();
}
