/**
 * The models the service serves and what each was found to support (docs/models.md):
 *   npm run models -- list           each public name, its endpoint, its capabilities, and the
 *                                    calls it is sent at once (told, or learned from latency)
 *   npm run models -- probe [name]   probe now (every model at an openai-compatible endpoint,
 *                                    or the one named) and keep the findings for every worker
 * Reads the same settings as the worker (MODEL_ENDPOINTS, or OPENAI_BASE_URL and MODEL_MAP)
 * and REDIS_URL, else the Redis of a running `npm start`. Never prints a key.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  capabilityResolver,
  isProbed,
  memoryCapabilityStore,
  memoryLearnedLimits,
  modelEndpointsConfig,
  needsProbe,
  probeRoute,
  redisCapabilityStore,
  redisLearnedLimits,
  registryFromSettings,
  singleEndpointConfig,
  type Capabilities,
  type CapabilityStore,
  type LearnedLimits,
  type ModelRegistry,
  type ModelRoute,
} from '@xt/model';
import { createRedis, type RedisConnection } from '@xt/queue';
import { baseConfig, parseEnv } from '@xt/runtime';
import { loadLauncherConfig } from '../config.ts';
import { readRunningStack } from '../local-servers.ts';

const USAGE = `usage:
  npm run models -- list
  npm run models -- probe [model]`;

const settings = z.object({
  ...modelEndpointsConfig,
  ...singleEndpointConfig,
  REDIS_URL: baseConfig.REDIS_URL.optional(),
  QUEUE_PREFIX: baseConfig.QUEUE_PREFIX,
  MODEL_PROBE_TTL_SECONDS: z.coerce.number().int().min(1).default(86_400),
  MODEL_PROBE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
});

async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  const [command, only] = positionals;
  if (command !== 'list' && command !== 'probe') {
    console.error(USAGE);
    return 2;
  }
  const config = parseEnv(settings, process.env);
  const registry = registryFromSettings(config, process.env, command === 'probe');
  const redisUrl =
    config.REDIS_URL ?? (await readRunningStack(loadLauncherConfig().DATA_DIR))?.redisUrl;
  const redis: RedisConnection | undefined = redisUrl
    ? await connected(createRedis(redisUrl, 'producer'))
    : undefined;
  const store: CapabilityStore = redis
    ? redisCapabilityStore(redis, config.QUEUE_PREFIX, config.MODEL_PROBE_TTL_SECONDS)
    : memoryCapabilityStore();
  // list only reads what the workers learned: the bounds they learn within are theirs
  const bounds = { start: 1, min: 1, max: Number.MAX_SAFE_INTEGER };
  const learned: LearnedLimits = redis
    ? redisLearnedLimits(redis, config.QUEUE_PREFIX, config.MODEL_PROBE_TTL_SECONDS, bounds)
    : memoryLearnedLimits(bounds);
  if (!redis) console.error('no REDIS_URL and no running `npm start`: findings are not kept');
  try {
    return command === 'list'
      ? await list(registry, store, learned)
      : await probe(registry, store, only, config.MODEL_PROBE_TIMEOUT_MS);
  } finally {
    redis?.disconnect();
  }
}

/** The producer connection sends nothing before it is up; a CLI waits for it, briefly. */
async function connected(redis: RedisConnection): Promise<RedisConnection> {
  if (redis.status === 'ready') return redis;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Redis did not answer in 5 s')), 5_000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}

async function list(
  registry: ModelRegistry,
  store: CapabilityStore,
  learned: LearnedLimits,
): Promise<number> {
  const resolver = capabilityResolver({
    store,
    probe: () => Promise.reject(new Error('list does not probe')),
    probeWaitMs: 0,
  });
  for (const id of registry.names) {
    const route = registry.route(id)!;
    const known = await resolver.known(route);
    const where = `${route.endpoint.name} (${route.endpoint.kind}, ${route.providerModel})`;
    console.log(`${id}${id === registry.defaultModel ? ' [default]' : ''}  ${where}`);
    console.log(`  ${describe(known.capabilities, known.probedAt, needsProbe(route))}`);
    if (known.capabilities) console.log(`  ${await atOnce(route, known.capabilities, learned)}`);
  }
  return 0;
}

/** The calls the workers send the model at once, and who said so. */
async function atOnce(route: ModelRoute, c: Capabilities, learned: LearnedLimits): Promise<string> {
  if (route.endpoint.maxInFlight !== undefined)
    return `at once: ${route.endpoint.maxInFlight} (told: the endpoint's maxInFlight)`;
  if (c.slots !== null) return `at once: ${c.slots} (told: the server's slots)`;
  if (!isProbed(route.endpoint)) return 'at once: not limited (OpenAI is not learned)';
  const found = await learned.read(route.endpoint.name, route.providerModel);
  if (!found) return 'at once: learned from latency; no call has taught it yet';
  const baseline = found.baselineMsPerToken?.toFixed(1) ?? '?';
  return `at once: ${Math.floor(found.limit)} (learned from latency over ${found.samples} calls; ${baseline} ms a token without a queue)`;
}

async function probe(
  registry: ModelRegistry,
  store: CapabilityStore,
  only: string | undefined,
  timeoutMs: number,
): Promise<number> {
  if (only !== undefined && !registry.route(only)) {
    console.error(`no model "${only}"; the models served are: ${registry.names.join(', ')}`);
    return 2;
  }
  let failed = 0;
  for (const id of only ? [only] : registry.names) {
    const route = registry.route(id)!;
    if (!needsProbe(route)) {
      console.log(`${id}: ${route.endpoint.kind} speaks OpenAI's dialect; not probed`);
      continue;
    }
    try {
      const found = await probeRoute(route, timeoutMs);
      await store.put(route.endpoint.name, route.providerModel, found);
      console.log(`${id}: ${describe(found.capabilities, found.probedAt, true)}`);
      for (const note of found.notes) console.log(`  ${note}`);
    } catch (error) {
      failed += 1;
      console.log(`${id}: probe failed: ${(error as Error).message}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

function describe(
  c: Awaited<ReturnType<ReturnType<typeof capabilityResolver>['forRoute']>> | null,
  probedAt: string | null,
  probed: boolean,
): string {
  if (!c) return 'not probed yet (it is on its first extraction, or by `npm run models -- probe`)';
  const parts = [
    `output: ${c.structuredOutput}${c.structuredOutput === 'json_schema' && !c.strict ? ' (not strict)' : ''}`,
    `images: ${c.images ? 'yes' : 'no (read as OCR text)'}`,
    `logprobs: ${c.logprobs ? 'yes' : 'no'}`,
    `context: ${c.contextTokens ?? 'not told'}`,
    `slots: ${c.slots ?? 'not told'}`,
  ];
  return `${parts.join(', ')}${probed ? `; probed ${probedAt ?? 'never'}` : ''}`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${(error as Error).message}`);
    process.exit(1);
  },
);
