import type { LearnedLimit, ModelRoute, ProbedCapabilities } from '@xt/model';
import { Counter, Gauge, type Registry } from '@xt/telemetry';

export interface ModelProbeMetrics {
  /** A model's probe ended: what it found, or that it failed. */
  probed(route: ModelRoute, found: ProbedCapabilities | undefined): void;
  /** A call taught the limit of a model whose server tells no slots. */
  learned(route: ModelRoute, limit: LearnedLimit): void;
}

/**
 * What the probes learned, for the dashboards an operator watches: how often each endpoint was
 * probed and what that cost (never charged to an account), and per model the window calls are
 * sized by, the calls it is sent at once (told, or learned from its latency) and whether it
 * takes images and log-probabilities. Labels are configured
 * endpoint and model names only, so the series stay bounded.
 */
export function modelProbeMetrics(registry: Registry): ModelProbeMetrics {
  const registers = [registry];
  const probes = new Counter({
    name: 'worker_model_probes_total',
    help: 'Capability probes of a model server by endpoint and outcome (ok, failed)',
    labelNames: ['endpoint', 'outcome'] as const,
    registers,
  });
  const tokens = new Counter({
    name: 'worker_model_probe_tokens_total',
    help: 'Tokens the capability probes spent, by endpoint (the service pays; no account is charged)',
    labelNames: ['endpoint'] as const,
    registers,
  });
  const context = new Gauge({
    name: 'worker_model_context_tokens',
    help: 'The context window calls to a model are sized by, as its last probe found (0: not told)',
    labelNames: ['endpoint', 'model'] as const,
    registers,
  });
  const slots = new Gauge({
    name: 'worker_model_slots',
    help: 'Calls a model is sent at once over all workers: the slots its server or operator told (source told), else the limit learned from its latency (source learned)',
    labelNames: ['endpoint', 'model', 'source'] as const,
    registers,
  });
  /** one series per model: the source it has now */
  const slotsBy = (route: ModelRoute, source: 'told' | 'learned', value: number) => {
    const labels = { endpoint: route.endpoint.name, model: route.id };
    slots.remove({ ...labels, source: source === 'told' ? 'learned' : 'told' });
    slots.set({ ...labels, source }, value);
  };
  const abilities = new Gauge({
    name: 'worker_model_capability',
    help: 'Whether a model takes a feature (1) or not (0): images, logprobs, json_schema',
    labelNames: ['endpoint', 'model', 'capability'] as const,
    registers,
  });
  return {
    probed(route, found) {
      const endpoint = route.endpoint.name;
      probes.inc({ endpoint, outcome: found ? 'ok' : 'failed' });
      if (!found) return;
      tokens.inc({ endpoint }, found.tokensSpent);
      const labels = { endpoint, model: route.id };
      const c = found.capabilities;
      context.set(labels, c.contextTokens ?? 0);
      const told = route.endpoint.maxInFlight ?? c.slots;
      if (told !== null) slotsBy(route, 'told', told);
      abilities.set({ ...labels, capability: 'images' }, c.images ? 1 : 0);
      abilities.set({ ...labels, capability: 'logprobs' }, c.logprobs ? 1 : 0);
      abilities.set(
        { ...labels, capability: 'json_schema' },
        c.structuredOutput === 'json_schema' ? 1 : 0,
      );
    },
    learned(route, limit) {
      slotsBy(route, 'learned', Math.floor(limit.limit));
    },
  };
}
