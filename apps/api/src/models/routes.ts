import { Router } from 'express';
import {
  capabilityResolver,
  redisCapabilityStore,
  type CapabilityRedis,
  type CapabilityResolver,
  type ModelRegistry,
} from '@xt/model';
import { sendOk } from '../http/envelope/envelope.ts';
import type { ModelInfo } from './response.ts';

/**
 * `GET /v1/models`: the public names `model` takes and what each can do, for any key. The
 * capabilities are the ones the workers learned (shared in Redis); the API never probes.
 */
export function modelRoutes(registry: ModelRegistry, capabilities: CapabilityResolver): Router {
  const router = Router();
  router.get('/models', async (_req, res) => {
    const data: ModelInfo[] = await Promise.all(
      registry.names.map(async (id) => {
        const route = registry.route(id);
        const known = route
          ? await capabilities.known(route)
          : { capabilities: null, probedAt: null };
        const c = known.capabilities;
        return {
          id,
          default: id === registry.defaultModel,
          capabilities: c && {
            structuredOutput: c.structuredOutput,
            images: c.images,
            logprobs: c.logprobs,
            contextTokens: c.contextTokens,
            outputTokens: c.outputTokens,
          },
          probedAt: known.probedAt,
        };
      }),
    );
    sendOk(res, data, 'Models retrieved.');
  });
  return router;
}

/** The workers' findings as the API reads them: it lists them and never probes a server itself. */
export function listedCapabilities(redis: CapabilityRedis, prefix: string): CapabilityResolver {
  return capabilityResolver({
    // The expiry is the workers' to set; the API only reads.
    store: redisCapabilityStore(redis, prefix, 1),
    probe: () => Promise.reject(new Error('the API does not probe models')),
    probeWaitMs: 0,
  });
}
