import type { ProbedCapabilities } from './capability-store.ts';
import { probeCapabilities } from './probe.ts';
import type { ModelRoute } from './registry.ts';

/** A route's model probed at its endpoint, stamped with when: what the capability store keeps. */
export async function probeRoute(
  route: ModelRoute,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProbedCapabilities> {
  const found = await probeCapabilities({
    // only openai-compatible endpoints are probed, and their base URL is required
    baseURL: route.endpoint.baseURL ?? '',
    apiKey: route.endpoint.apiKey,
    providerModel: route.providerModel,
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  return { ...found, probedAt: new Date().toISOString() };
}
