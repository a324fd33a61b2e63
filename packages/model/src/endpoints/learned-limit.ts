/*
 * The calls in flight a model server that tells nothing of its slots is sent, found by watching
 * its latency (docs/models.md#slow-servers). Written here rather than taken from a library: npm
 * has no maintained adaptive-concurrency package (Netflix's concurrency-limits is Java, its
 * ports are Go and Rust), and every one keeps its state in one process's memory, while this
 * limit is one for all worker processes, kept in Redis (learned-limit-store.ts). The rule is
 * small and pure, so it is tested with made-up latencies and no clock.
 *
 * The no-queue baseline is the least latency per token seen, raised again by calls that were
 * alone in flight (nothing of ours queued ahead of them: the server got slower, or others use
 * it). A call well above the baseline while others were in flight means a queue at the server:
 * the limit drops to what Little's law says the server works at once (in flight × baseline /
 * latency), by one at least and by half at most, once per round (calls begun before a drop
 * carry the old queue: they neither drop it again nor grow it). When a round of calls at the
 * limit (as many in a row as the limit) all stay near the baseline, it grows by one, so a server
 * with more slots is found.
 */

export interface LimitBounds {
  /** where a model no call has taught yet starts */
  start: number;
  min: number;
  max: number;
}

export interface LearnedLimit {
  /** calls allowed in flight */
  limit: number;
  /** the no-queue latency, in ms per weighted token */
  baselineMsPerToken: number | null;
  /** bumped by every drop: a call begun under an older round cannot drop it again */
  round: number;
  /** calls that taught it, for operators */
  samples: number;
  /** calls at the limit in a row that stayed near the baseline (absent: none) */
  good?: number;
}

export interface LatencySample {
  /** from the request sent to its answer (never the wait for a slot) */
  ms: number;
  promptTokens: number;
  completionTokens: number;
  /** calls in flight at the server from every worker when this one was sent, itself included */
  inFlight: number;
  /** the `round` of the limit when this call was sent */
  round: number;
}

/** Reading a prompt is batched: a prompt token costs a server about this much of an answer token. */
export const PROMPT_TOKEN_WEIGHT = 1 / 8;
/** Latency this many times the baseline, with others in flight, is a queue. */
export const QUEUE_RATIO = 1.5;
/** A round of calls at the limit within this many times the baseline leaves room for one more. */
export const ROOM_RATIO = 1.2;
/** How far a call alone in flight moves a baseline below it towards itself. */
const ALONE_WEIGHT = 0.2;

export function initialLimit(bounds: LimitBounds): LearnedLimit {
  return {
    limit: clamp(bounds.start, bounds),
    baselineMsPerToken: null,
    round: 0,
    samples: 0,
    good: 0,
  };
}

/** The calls to let in flight now: the learned limit within today's bounds. */
export function allowed(state: LearnedLimit | undefined, bounds: LimitBounds): number {
  return Math.floor(clamp(state?.limit ?? bounds.start, bounds));
}

export function msPerToken(sample: LatencySample): number {
  const weight = sample.completionTokens + sample.promptTokens * PROMPT_TOKEN_WEIGHT;
  return sample.ms / Math.max(1, weight);
}

/** The limit after one more call's latency. */
export function nextLimit(
  state: LearnedLimit,
  sample: LatencySample,
  bounds: LimitBounds,
): LearnedLimit {
  const latency = msPerToken(sample);
  const limit = Math.floor(clamp(state.limit, bounds));
  const samples = state.samples + 1;
  const before = state.baselineMsPerToken;
  const baseline =
    before === null || latency <= before
      ? latency
      : sample.inFlight <= 1
        ? before + (latency - before) * ALONE_WEIGHT
        : before;
  const ratio = latency / baseline;
  const kept = { baselineMsPerToken: baseline, round: state.round, samples };
  // A call sent before the last drop tells of the limit that was, neither way.
  if (sample.round !== state.round) return { ...state, ...kept, limit };
  if (ratio > QUEUE_RATIO && sample.inFlight > 1) {
    // Little's law: the server works about inFlight × baseline / latency at once. One call's
    // latency overstates the queue (the one that waited is the one that tells), so never more
    // than half is dropped a round: a server with more slots is not thrown far below them.
    const works = Math.floor((sample.inFlight * baseline) / latency);
    const dropped = clamp(Math.min(limit - 1, Math.max(works, Math.floor(limit / 2))), bounds);
    return { ...kept, limit: dropped, round: state.round + 1, good: 0 };
  }
  if (ratio > ROOM_RATIO) return { ...kept, limit, good: 0 };
  if (sample.inFlight < limit) return { ...kept, limit, good: state.good ?? 0 };
  // Room only when a whole round of calls at the limit stayed near the baseline: one call that
  // was lucky (sent as the call ahead of it ended) is no proof.
  const good = (state.good ?? 0) + 1;
  return good >= limit
    ? { ...kept, limit: clamp(limit + 1, bounds), good: 0 }
    : { ...kept, limit, good };
}

function clamp(value: number, bounds: LimitBounds): number {
  return Math.min(bounds.max, Math.max(bounds.min, value));
}
