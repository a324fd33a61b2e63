import { ExtractionFailure } from '@xt/contract';
import type {
  Capabilities,
  CapabilityResolver,
  ModelClient,
  ModelClients,
  ModelRoute,
} from '@xt/model';

/** A row's model as the job calls it: its endpoint's client and what the model can do. */
export interface ModelAccessed {
  client: ModelClient;
  route: ModelRoute;
  capabilities: Capabilities;
  /** keeps what a call taught about the model (a refused feature, the window really kept) for every process */
  learned?: ((capabilities: Capabilities) => void) | undefined;
}

export interface ModelAccess {
  /**
   * The row's model, probed first if no process has yet (docs/models.md). A name no endpoint
   * serves any more (the configuration changed since the create) fails the extraction, not
   * retryable, naming the model.
   */
  forModel(model: string, signal?: AbortSignal): Promise<ModelAccessed>;
  readonly clients: ModelClients;
  readonly capabilities: CapabilityResolver;
}

export function modelAccess(
  clients: ModelClients,
  capabilities: CapabilityResolver,
  /** told each time a model's capabilities are read (the endpoint's slots follow them) */
  onResolved?: (route: ModelRoute, capabilities: Capabilities) => void,
): ModelAccess {
  return {
    clients,
    capabilities,
    async forModel(model, signal) {
      const route = clients.route(model);
      const client = clients.forModel(model);
      if (!route || !client)
        throw new ExtractionFailure(
          'MODEL_UNAVAILABLE',
          `No endpoint serves the model "${model}" any more; the models served are: ${clients.registry.names.join(', ')}.`,
        );
      const found = await capabilities.forRoute(route, signal);
      onResolved?.(route, found);
      return {
        client,
        route,
        capabilities: found,
        learned: (weaker) => {
          // Best effort: a lost write means only that the next call learns it again.
          void capabilities.downgrade(route, weaker).catch(() => undefined);
        },
      };
    },
  };
}
