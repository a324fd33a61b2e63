import type { Logger } from 'pino';
import pLimit from 'p-limit';
import {
  capabilityResolver,
  modelClients,
  isProbed,
  pacedSchedule,
  probeRoute,
  ProbeError,
  redisCapabilityStore,
  redisEndpointSlots,
  redisLearnedLimits,
  type CapabilityRedis,
  type Endpoint,
  type LearnedLimit,
  type LearnedLimitRedis,
  type ModelRoute,
  type ProbedCapabilities,
  type SharedClientOptions,
} from '@xt/model';
import { ExtractionFailure } from '@xt/contract';
import { errorSummary } from '@xt/runtime';
import type { WorkerConfig } from '../config.ts';
import { modelAccess, type ModelAccess } from '../job/model-access.ts';

type SlotRedis = Parameters<typeof redisEndpointSlots>[0];

/**
 * Every endpoint's client, and the capabilities each model is called with: learned by probing
 * a server that is not OpenAI's on its first use, kept in Redis for every worker and the API
 * (docs/models.md). Each endpoint's calls wait for one of its slots, counted across all
 * workers (told by its server or operator, else learned from latency), then for the process's
 * own bound (MODEL_MAX_IN_FLIGHT).
 */
export function setUpModels(
  config: WorkerConfig,
  redis: CapabilityRedis & SlotRedis & LearnedLimitRedis,
  shared: SharedClientOptions,
  logger: Logger,
  /** told of every probe as it ends: what it found, or undefined when it failed */
  onProbed?: (route: ModelRoute, found: ProbedCapabilities | undefined) => void,
  /** told of a learned limit after each call that taught it */
  onLearned?: (endpoint: Endpoint, providerModel: string, limit: LearnedLimit) => void,
): ModelAccess {
  // The slots the operator set, else the ones the server told its probe (llama.cpp's total_slots).
  const limits = new Map<string, number>();
  const pacing = {
    slots: redisEndpointSlots(redis, config.QUEUE_PREFIX, { waitMs: config.JOB_TIMEOUT_MS }),
    learned: redisLearnedLimits(redis, config.QUEUE_PREFIX, config.MODEL_PROBE_TTL_SECONDS, {
      start: config.MODEL_LEARNED_SLOTS_START,
      min: config.MODEL_LEARNED_SLOTS_MIN,
      max: config.MODEL_LEARNED_SLOTS_MAX,
    }),
    told: (endpoint: Endpoint) => limits.get(endpoint.name) ?? endpoint.maxInFlight,
    // OpenAI's and Azure's latency varies with their load, not a queue of ours: never learned.
    learns: isProbed,
    inProcess: pLimit(config.MODEL_MAX_IN_FLIGHT),
    onLearned,
  };
  const clients = modelClients(
    config.models,
    {
      ...shared,
      timeoutPer1kTokensMs: config.MODEL_TIMEOUT_PER_1K_TOKENS_MS,
      loadWaitMs: config.MODEL_LOAD_WAIT_MS,
    },
    (endpoint) => pacedSchedule(pacing, endpoint),
  );
  const resolver = capabilityResolver({
    store: redisCapabilityStore(redis, config.QUEUE_PREFIX, config.MODEL_PROBE_TTL_SECONDS),
    probe: async (route, signal) => {
      const started = Date.now();
      const probed = await probeRoute(route, config.MODEL_PROBE_TIMEOUT_MS, signal).catch(
        (error: unknown) => {
          onProbed?.(route, undefined);
          throw probeFailure(route, error, logger);
        },
      );
      logger.info(
        {
          endpoint: route.endpoint.name,
          model: route.id,
          capabilities: probed.capabilities,
          tokens: probed.tokensSpent,
          ms: Date.now() - started,
          notes: probed.notes,
        },
        'model probed',
      );
      onProbed?.(route, probed);
      return probed;
    },
    probeWaitMs: config.MODEL_PROBE_TIMEOUT_MS,
  });
  return modelAccess(clients, resolver, (route, capabilities) => {
    if (capabilities.slots !== null) limits.set(route.endpoint.name, capabilities.slots);
  });
}

const PROBE_FAILURES: Record<ProbeError['reason'], { says: string; retryable: boolean }> = {
  unreachable: { says: 'could not be reached', retryable: true },
  timeout: { says: 'did not answer in time', retryable: true },
  unauthorized: { says: 'refused the API key', retryable: false },
  'no-model': { says: 'does not serve the model', retryable: false },
};

/**
 * A probe that failed fails the extraction (uncharged: nothing was extracted) with a message
 * naming the endpoint as configured; its address stays in the worker's log, since an API client
 * has no business learning where the operator's model servers are.
 */
function probeFailure(route: ModelRoute, error: unknown, logger: Logger): ExtractionFailure {
  logger.warn(
    { endpoint: route.endpoint.name, model: route.id, err: errorSummary(error) },
    'model probe failed',
  );
  const failure =
    error instanceof ProbeError
      ? PROBE_FAILURES[error.reason]
      : { says: 'failed while its capabilities were learned', retryable: true };
  const model = error instanceof ProbeError && error.reason === 'no-model' ? ` "${route.id}"` : '';
  return new ExtractionFailure(
    'MODEL_UNAVAILABLE',
    `The model endpoint "${route.endpoint.name}" ${failure.says}${model}.`,
    { retryable: failure.retryable, cause: error },
  );
}
