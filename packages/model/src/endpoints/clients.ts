import { createModelClient, type ModelClient, type ModelClientOptions } from '../client.ts';
import type { Endpoint, ModelRegistry, ModelRoute } from './registry.ts';

/** What every endpoint's client shares: the process's limits, not a server's address or key. */
export type SharedClientOptions = Omit<
  ModelClientOptions,
  'endpointName' | 'apiKey' | 'baseURL' | 'azure' | 'modelMap'
>;

export interface ModelClients {
  /** The client of the endpoint serving `model`; undefined for a name no endpoint serves. */
  forModel(model: string): ModelClient | undefined;
  route(model: string): ModelRoute | undefined;
  /** the client serving the default model (the batch interface's, docs/batch.md) */
  readonly primary: ModelClient;
  readonly registry: ModelRegistry;
}

/**
 * One client per endpoint (its own HTTP connections, key and deadline), each knowing its own
 * models' provider names. A name moves between endpoints only by configuration, so the map is
 * built once at start.
 */
export function modelClients(
  registry: ModelRegistry,
  shared: SharedClientOptions,
  /** how each endpoint's calls are run: its slots across workers (slots.ts), then the process's bound */
  scheduleFor?: (endpoint: Endpoint) => ModelClientOptions['schedule'],
): ModelClients {
  const byEndpoint = new Map<string, ModelClient>();
  for (const endpoint of registry.endpoints) {
    const modelMap: Record<string, string> = {};
    for (const name of registry.names) {
      const route = registry.route(name);
      if (route?.endpoint.name === endpoint.name) modelMap[name] = route.providerModel;
    }
    byEndpoint.set(
      endpoint.name,
      createModelClient({
        ...shared,
        endpointName: endpoint.name,
        apiKey: endpoint.apiKey,
        baseURL: endpoint.baseURL,
        ...(endpoint.kind === 'azure' && endpoint.apiVersion
          ? { azure: { apiVersion: endpoint.apiVersion } }
          : {}),
        modelMap,
        timeoutMs: endpoint.timeoutMs ?? shared.timeoutMs,
        ...(scheduleFor ? { schedule: scheduleFor(endpoint) } : {}),
      }),
    );
  }
  const forModel = (model: string) => {
    const route = registry.route(model);
    return route ? byEndpoint.get(route.endpoint.name) : undefined;
  };
  const primary = forModel(registry.defaultModel) ?? [...byEndpoint.values()][0];
  if (!primary) throw new Error('no model endpoint is configured');
  return { forModel, route: (model) => registry.route(model), primary, registry };
}
