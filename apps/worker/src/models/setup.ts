import type { Logger } from 'pino';
import pLimit from 'p-limit';
import {
  capabilityResolver,
  modelClients,
  probeCapabilities,
  ProbeError,
  redisCapabilityStore,
  redisEndpointSlots,
  type CapabilityRedis,
  type EndpointSlots,
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
 * workers, then for the process's own bound (MODEL_MAX_IN_FLIGHT).
 */
export function setUpModels(
  config: WorkerConfig,
  redis: CapabilityRedis & SlotRedis,
  shared: SharedClientOptions,
  logger: Logger,
  onProbed?: (route: ModelRoute, found: ProbedCapabilities) => void,
): ModelAccess {
  const inProcess = pLimit(config.MODEL_MAX_IN_FLIGHT);
  const slots: EndpointSlots = redisEndpointSlots(redis, config.QUEUE_PREFIX, {
    waitMs: config.JOB_TIMEOUT_MS,
  });
  // The slots the operator set, else the ones the server told its probe (llama.cpp's total_slots).
  const limits = new Map<string, number>();
  const clients = modelClients(
    config.models,
    {
      ...shared,
      timeoutPer1kTokensMs: config.MODEL_TIMEOUT_PER_1K_TOKENS_MS,
      loadWaitMs: config.MODEL_LOAD_WAIT_MS,
    },
    (endpoint) => (call) =>
      slots.run(endpoint.name, limits.get(endpoint.name) ?? endpoint.maxInFlight, () =>
        inProcess(call),
      ),
  );
  const resolver = capabilityResolver({
    store: redisCapabilityStore(redis, config.QUEUE_PREFIX, config.MODEL_PROBE_TTL_SECONDS),
    probe: async (route, signal) => {
      const started = Date.now();
      const found = await probeCapabilities({
        // only openai-compatible endpoints are probed, and their base URL is required
        baseURL: route.endpoint.baseURL ?? '',
        apiKey: route.endpoint.apiKey,
        providerModel: route.providerModel,
        timeoutMs: config.MODEL_PROBE_TIMEOUT_MS,
        signal,
      }).catch((error: unknown) => {
        throw probeFailure(route, error, logger);
      });
      logger.info(
        {
          endpoint: route.endpoint.name,
          model: route.id,
          capabilities: found.capabilities,
          tokens: found.tokensSpent,
          ms: Date.now() - started,
          notes: found.notes,
        },
        'model probed',
      );
      return { ...found, probedAt: new Date().toISOString() };
    },
    probeWaitMs: config.MODEL_PROBE_TIMEOUT_MS,
    onProbed,
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
