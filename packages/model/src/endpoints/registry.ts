import { DEFAULT_MODEL, PUBLIC_MODELS } from '@xt/contract';
import type { CapabilityOverrides, EndpointEntry, EndpointKind } from './config.ts';

/** One server the service calls, resolved from its configuration (key included). */
export interface Endpoint {
  name: string;
  kind: EndpointKind;
  /** undefined: OpenAI's own */
  baseURL: string | undefined;
  apiKey: string;
  apiVersion: string | undefined;
  maxInFlight: number | undefined;
  contextTokens: number | undefined;
  timeoutMs: number | undefined;
}

/** A public model name, where it is served and under what name. */
export interface ModelRoute {
  id: string;
  endpoint: Endpoint;
  providerModel: string;
  /** what the operator stated of the model, winning over the probe's findings */
  overrides: CapabilityOverrides;
}

export interface ModelRegistry {
  /** every public name, in configuration order */
  readonly names: string[];
  readonly defaultModel: string;
  readonly endpoints: Endpoint[];
  route(model: string): ModelRoute | undefined;
}

/** The one endpoint OPENAI_BASE_URL, OPENAI_API_KEY and MODEL_MAP describe. */
export interface SingleEndpointSettings {
  apiKey: string;
  baseURL: string | undefined;
  modelMap: Record<string, string>;
  /**
   * What the server is: `auto` takes api.openai.com as OpenAI and probes anything else; `openai`
   * declares a server that speaks OpenAI's whole dialect (a proxy in front of OpenAI), not probed.
   */
  kind?: 'auto' | 'openai' | 'openai-compatible' | undefined;
}

/** The name of the endpoint the single-endpoint variables describe (metrics, logs, `npm run models`). */
export const SINGLE_ENDPOINT_NAME = 'default';

/**
 * The public models and their endpoints: MODEL_ENDPOINTS when set (it then names every model
 * served), else the single endpoint of OPENAI_BASE_URL serving the default names. A key named
 * by `apiKeyEnv` is read from `env`; a missing one stops the process at start (the returned
 * problems), naming the endpoint and the variable, never a key.
 */
export function modelRegistry(
  entries: EndpointEntry[] | undefined,
  single: SingleEndpointSettings,
  env: Readonly<Record<string, string | undefined>>,
  opts: { needKeys: boolean } = { needKeys: true },
): { registry: ModelRegistry; problems: string[] } {
  const problems: string[] = [];
  const routes: ModelRoute[] = [];
  const endpoints: Endpoint[] = [];
  let defaultModel: string | undefined;
  if (!entries) {
    const endpoint: Endpoint = {
      name: SINGLE_ENDPOINT_NAME,
      kind:
        single.kind && single.kind !== 'auto'
          ? single.kind
          : isOpenAiUrl(single.baseURL)
            ? 'openai'
            : 'openai-compatible',
      baseURL: single.baseURL,
      // Unset: local servers take any key or none, and OpenAI answers 401 (MODEL_UNAVAILABLE)
      // saying so; the SDK itself refuses to be built without a string.
      apiKey: single.apiKey || 'none',
      apiVersion: undefined,
      maxInFlight: undefined,
      contextTokens: undefined,
      timeoutMs: undefined,
    };
    endpoints.push(endpoint);
    for (const id of PUBLIC_MODELS)
      routes.push({ id, endpoint, providerModel: single.modelMap[id] ?? id, overrides: {} });
    defaultModel = DEFAULT_MODEL;
  } else {
    for (const entry of entries) {
      const key = entry.apiKey ?? (entry.apiKeyEnv ? env[entry.apiKeyEnv] : undefined);
      if (entry.apiKeyEnv && !key && opts.needKeys)
        problems.push(
          `endpoint "${entry.name}": apiKeyEnv names ${entry.apiKeyEnv}, which is not set`,
        );
      const endpoint: Endpoint = {
        name: entry.name,
        kind: entry.kind,
        baseURL: entry.baseUrl,
        // Local servers take any key or none; the SDK insists on a string.
        apiKey: key ?? 'none',
        apiVersion: entry.apiVersion,
        maxInFlight: entry.maxInFlight,
        contextTokens: entry.contextTokens,
        timeoutMs: entry.timeoutMs,
      };
      endpoints.push(endpoint);
      for (const model of entry.models) {
        routes.push({
          id: model.id,
          endpoint,
          providerModel: model.providerModel ?? model.id,
          overrides: model.capabilities ?? {},
        });
        if (model.default) defaultModel = model.id;
      }
    }
  }
  const byId = new Map(routes.map((route) => [route.id, route]));
  const names = routes.map((route) => route.id);
  return {
    registry: {
      names,
      defaultModel: defaultModel ?? names[0] ?? DEFAULT_MODEL,
      endpoints,
      route: (model) => byId.get(model),
    },
    problems,
  };
}

export function isOpenAiUrl(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return true;
  try {
    return new URL(baseURL).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}
