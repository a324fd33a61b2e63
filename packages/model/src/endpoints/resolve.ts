import { OPENAI_CAPABILITIES, type Capabilities } from './capabilities.ts';
import type { CapabilityStore, ProbedCapabilities } from './capability-store.ts';
import type { ModelRoute } from './registry.ts';

/** Learns what one model at one endpoint can do (probe.ts); throws when the server fails it. */
export type ProbeModel = (route: ModelRoute, signal?: AbortSignal) => Promise<ProbedCapabilities>;

export interface CapabilityResolver {
  /** The capabilities calls to this model follow; probes it first if no process has yet. */
  forRoute(route: ModelRoute, signal?: AbortSignal): Promise<Capabilities>;
  /** What is known without probing (the API's listing): null when it has not been probed. */
  known(route: ModelRoute): Promise<{ capabilities: Capabilities | null; probedAt: string | null }>;
  /** A call was refused for a capability the probe granted: every process now uses `weaker`. */
  downgrade(route: ModelRoute, weaker: Capabilities): Promise<void>;
  /** Probes again now (`npm run models -- probe`). */
  reprobe(route: ModelRoute, signal?: AbortSignal): Promise<Capabilities>;
}

export interface ResolverOptions {
  store: CapabilityStore;
  probe: ProbeModel;
  /** how long another process's probe is waited for before probing here too */
  probeWaitMs: number;
  /** told of every finished probe (logs, metrics) */
  onProbed?: ((route: ModelRoute, found: ProbedCapabilities) => void) | undefined;
}

/**
 * OpenAI and Azure OpenAI speak the dialect the service was written for, so they are taken at
 * their documented word and never probed. Anything else (a local server, a gateway, the single
 * OPENAI_BASE_URL pointed elsewhere) is probed on first use, once for all processes.
 */
export function needsProbe(route: ModelRoute): boolean {
  return route.endpoint.kind === 'openai-compatible';
}

/** The probe's (or OpenAI's) findings with what the operator configured laid over them. */
export function effectiveCapabilities(route: ModelRoute, found: Capabilities): Capabilities {
  const o = route.overrides;
  // The smallest window anyone states: a server keeps no more than it was started with, however
  // large the operator believes it, and an operator may know the GPU holds less than the
  // model's own maximum that a server tells.
  const stated = [o.contextTokens, route.endpoint.contextTokens, found.contextTokens].filter(
    (n): n is number => typeof n === 'number' && n > 0,
  );
  const contextTokens = stated.length > 0 ? Math.min(...stated) : null;
  return {
    ...found,
    ...(o.structuredOutput ? { structuredOutput: o.structuredOutput } : {}),
    ...(o.images === undefined ? {} : { images: o.images }),
    ...(o.logprobs === undefined ? {} : { logprobs: o.logprobs }),
    contextTokens,
    outputTokens: o.outputTokens ?? found.outputTokens,
    slots: route.endpoint.maxInFlight ?? found.slots,
  };
}

export function capabilityResolver(options: ResolverOptions): CapabilityResolver {
  const { store } = options;
  // One resolution per model in flight in this process: a burst of jobs waits for one probe.
  const pending = new Map<string, Promise<Capabilities>>();
  const id = (route: ModelRoute) => `${route.endpoint.name}\u0000${route.providerModel}`;

  async function probeAndStore(route: ModelRoute, signal?: AbortSignal): Promise<Capabilities> {
    const found = await options.probe(route, signal);
    await store.put(route.endpoint.name, route.providerModel, found);
    options.onProbed?.(route, found);
    return found.capabilities;
  }

  async function resolve(route: ModelRoute, signal?: AbortSignal): Promise<Capabilities> {
    const stored = await store.get(route.endpoint.name, route.providerModel);
    if (stored) return stored.capabilities;
    const deadline = Date.now() + options.probeWaitMs;
    while (
      !(await store.claimProbe(route.endpoint.name, route.providerModel, options.probeWaitMs))
    ) {
      // Another process is probing this model: its answer is worth waiting a little for.
      await sleep(200, signal);
      const found = await store.get(route.endpoint.name, route.providerModel);
      if (found) return found.capabilities;
      if (Date.now() > deadline) break;
    }
    try {
      return await probeAndStore(route, signal);
    } finally {
      await store.releaseProbe(route.endpoint.name, route.providerModel);
    }
  }

  return {
    async forRoute(route, signal) {
      if (!needsProbe(route)) return effectiveCapabilities(route, OPENAI_CAPABILITIES);
      const key = id(route);
      let running = pending.get(key);
      if (!running) {
        running = resolve(route, signal).finally(() => pending.delete(key));
        pending.set(key, running);
      }
      return effectiveCapabilities(route, await running);
    },
    async known(route) {
      if (!needsProbe(route))
        return { capabilities: effectiveCapabilities(route, OPENAI_CAPABILITIES), probedAt: null };
      const stored = await store.get(route.endpoint.name, route.providerModel);
      return stored
        ? {
            capabilities: effectiveCapabilities(route, stored.capabilities),
            probedAt: stored.probedAt,
          }
        : { capabilities: null, probedAt: null };
    },
    async downgrade(route, weaker) {
      const stored = await store.get(route.endpoint.name, route.providerModel);
      await store.put(route.endpoint.name, route.providerModel, {
        capabilities: weaker,
        probedAt: stored?.probedAt ?? new Date().toISOString(),
        tokensSpent: stored?.tokensSpent ?? 0,
        notes: [
          ...(stored?.notes ?? []),
          `downgraded after a refusal at ${new Date().toISOString()}`,
        ],
      });
    },
    async reprobe(route, signal) {
      return effectiveCapabilities(route, await probeAndStore(route, signal));
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
