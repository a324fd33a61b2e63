import { isDeepStrictEqual } from 'node:util';
import { OPENAI_CAPABILITIES, type Capabilities } from './capabilities.ts';
import type { CapabilityStore, ProbedCapabilities } from './capability-store.ts';
import type { Endpoint, ModelRoute } from './registry.ts';
import { sleep } from './sleep.ts';

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
  /** how long this process trusts what it last read before reading the store again; default 30 s */
  memoryMs?: number | undefined;
}

/**
 * OpenAI and Azure OpenAI speak the dialect the service was written for, so they are taken at
 * their documented word and never probed. Anything else (a local server, a gateway, the single
 * OPENAI_BASE_URL pointed elsewhere) is probed on first use, once for all processes.
 */
export function needsProbe(route: ModelRoute): boolean {
  return isProbed(route.endpoint);
}

export function isProbed(endpoint: Endpoint): boolean {
  return endpoint.kind === 'openai-compatible';
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

/** A probe's claim lasts this long unless its process renews it, as it does while it lives. */
const CLAIM_MS = 15_000;

export function capabilityResolver(options: ResolverOptions): CapabilityResolver {
  const { store } = options;
  // One resolution per model in flight in this process: a burst of jobs waits for one probe.
  const pending = new Map<string, Promise<Capabilities>>();
  // What this process last read, so a job costs no Redis round trip, and a Redis that is down
  // (the queue waits it out anyway) does not fail a job that already holds its data.
  const remembered = new Map<string, { capabilities: Capabilities; at: number }>();
  const memoryMs = options.memoryMs ?? 30_000;
  const id = (route: ModelRoute) => `${route.endpoint.name}\u0000${route.providerModel}`;

  async function probeAndStore(route: ModelRoute, signal?: AbortSignal): Promise<Capabilities> {
    const found = await options.probe(route, signal);
    await store.put(route.endpoint.name, route.providerModel, found);
    options.onProbed?.(route, found);
    return found.capabilities;
  }

  async function resolve(route: ModelRoute, signal?: AbortSignal): Promise<Capabilities> {
    let stored: ProbedCapabilities | undefined;
    try {
      stored = await store.get(route.endpoint.name, route.providerModel);
    } catch (error) {
      const last = remembered.get(id(route));
      if (last) return last.capabilities;
      throw error;
    }
    if (stored) return stored.capabilities;
    const { name } = route.endpoint;
    const model = route.providerModel;
    const deadline = Date.now() + options.probeWaitMs;
    while (!(await store.claimProbe(name, model, CLAIM_MS))) {
      // Another process is probing this model: its answer is worth waiting for while it lives
      // (it renews its claim); a prober that died lets its claim lapse within CLAIM_MS.
      await sleep(200, signal);
      const found = await store.get(name, model);
      if (found) return found.capabilities;
      if (Date.now() > deadline) break;
    }
    const renew = setInterval(() => {
      void store.holdProbe(name, model, CLAIM_MS).catch(() => undefined);
    }, CLAIM_MS / 3);
    try {
      return await probeAndStore(route, signal);
    } finally {
      clearInterval(renew);
      await store.releaseProbe(name, model).catch(() => undefined);
    }
  }

  return {
    async forRoute(route, signal) {
      if (!needsProbe(route)) return effectiveCapabilities(route, OPENAI_CAPABILITIES);
      const key = id(route);
      const last = remembered.get(key);
      if (last && Date.now() - last.at < memoryMs)
        return effectiveCapabilities(route, last.capabilities);
      let running = pending.get(key);
      if (!running) {
        running = resolve(route, signal)
          .then((capabilities) => {
            remembered.set(key, { capabilities, at: Date.now() });
            return capabilities;
          })
          .finally(() => pending.delete(key));
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
      const learned = learnedFrom(
        route,
        stored?.capabilities ?? remembered.get(id(route))?.capabilities,
        weaker,
      );
      remembered.set(id(route), { capabilities: learned, at: Date.now() });
      await store.put(route.endpoint.name, route.providerModel, {
        capabilities: learned,
        probedAt: stored?.probedAt ?? new Date().toISOString(),
        tokensSpent: stored?.tokensSpent ?? 0,
        notes: [
          ...(stored?.notes ?? []),
          `downgraded after a refusal at ${new Date().toISOString()}`,
        ],
      });
    },
    async reprobe(route, signal) {
      const capabilities = await probeAndStore(route, signal);
      remembered.set(id(route), { capabilities, at: Date.now() });
      return effectiveCapabilities(route, capabilities);
    },
  };
}

/**
 * What a refusal taught, laid on what the server was found to do: only the capabilities the
 * refusal changed. `weaker` is the effective set (the operator's settings laid over the probe's),
 * and storing it whole would keep an operator's override (a window, images) as if the server had
 * said it, after the operator removed it.
 */
function learnedFrom(
  route: ModelRoute,
  found: Capabilities | undefined,
  weaker: Capabilities,
): Capabilities {
  if (!found) return weaker;
  const before = effectiveCapabilities(route, found);
  const learned: Record<string, unknown> = { ...found };
  for (const [key, value] of Object.entries(weaker))
    if (!isDeepStrictEqual(value, before[key as keyof Capabilities])) learned[key] = value;
  return learned as unknown as Capabilities;
}
