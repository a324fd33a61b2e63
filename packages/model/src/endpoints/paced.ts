import { APIConnectionTimeoutError } from 'openai';
import type { Schedule, ScheduledCall } from '../client.ts';
import { allowed, type LearnedLimit } from './learned-limit.ts';
import type { LearnedLimits } from './learned-limit-store.ts';
import type { Endpoint } from './registry.ts';
import type { EndpointSlots } from './slots.ts';

export interface PacingOptions {
  slots: EndpointSlots;
  learned: LearnedLimits;
  /** the calls at once the operator set (`maxInFlight`) or the server told; undefined: neither */
  told(endpoint: Endpoint): number | undefined;
  /** whether an endpoint nobody told of is learned: servers that are probed, not OpenAI's own */
  learns(endpoint: Endpoint): boolean;
  /** the process's own bound, inside the endpoint's (MODEL_MAX_IN_FLIGHT) */
  inProcess: <T>(call: () => Promise<T>) => Promise<T>;
  /** told of a learned limit after each call that taught it (metrics) */
  onLearned?:
    ((endpoint: Endpoint, providerModel: string, limit: LearnedLimit) => void) | undefined;
  /** milliseconds; injected by tests */
  now?: (() => number) | undefined;
}

/**
 * How an endpoint's calls are run: within the slots its server or operator told, counted across
 * every worker; else, for a server that tells nothing, within a limit learned from the latency
 * of its calls (learned-limit.ts), shared the same way. A call's latency is taken from when it
 * is sent to its answer, inside both waits, so neither the wait for a slot nor the process's own
 * bound teaches anything (nor counts against the call's deadline, which starts inside too).
 */
export function pacedSchedule(options: PacingOptions, endpoint: Endpoint): Schedule {
  const { slots, learned, inProcess } = options;
  const now = options.now ?? Date.now;
  return async (call, about) => {
    const told = options.told(endpoint);
    if (told !== undefined || !about || !options.learns(endpoint))
      return slots.run({ endpoint: endpoint.name, limit: told }, () => inProcess(call));
    const model = about.providerModel;
    const limitNow = async () =>
      allowed(await learned.read(endpoint.name, model).catch(() => undefined), learned.bounds);
    return slots.run(
      { endpoint: endpoint.name, model, limit: await limitNow(), relimit: limitNow },
      async (inFlight) => {
        const [count, state] = await Promise.all([
          inFlight().catch(() => 1),
          learned.read(endpoint.name, model).catch(() => undefined),
        ]);
        return inProcess(async () => {
          const sent = now();
          const teach = (completionTokens: number) =>
            learn(options, endpoint, about, {
              ms: now() - sent,
              promptTokens: about.promptTokens,
              completionTokens,
              inFlight: count,
              round: state?.round ?? 0,
            });
          let result: Awaited<ReturnType<typeof call>>;
          try {
            result = await call();
          } catch (error) {
            // A deadline run out is the longest latency of all; other failures say nothing of pace.
            if (error instanceof APIConnectionTimeoutError) await teach(0);
            throw error;
          }
          await teach(completionTokensOf(result));
          return result;
        });
      },
    );
  };
}

async function learn(
  options: PacingOptions,
  endpoint: Endpoint,
  about: ScheduledCall,
  sample: Parameters<LearnedLimits['learn']>[2],
): Promise<void> {
  // A call that waited for the model to load measured the loading, not the server's pace.
  if (about.waitedForLoading) return;
  // Best effort: a lesson lost to a Redis fault is learned again by the next call.
  const next = await options.learned
    .learn(endpoint.name, about.providerModel, sample)
    .catch(() => undefined);
  if (next) options.onLearned?.(endpoint, about.providerModel, next);
}

function completionTokensOf(result: unknown): number {
  const usage = (result as { usage?: { completion_tokens?: unknown } } | null)?.usage;
  return typeof usage?.completion_tokens === 'number' ? usage.completion_tokens : 0;
}
