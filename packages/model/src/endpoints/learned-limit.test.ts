import { describe, expect, it } from 'vitest';
import {
  allowed,
  initialLimit,
  nextLimit,
  type LatencySample,
  type LearnedLimit,
  type LimitBounds,
} from './learned-limit.ts';

const bounds: LimitBounds = { start: 1, min: 1, max: 16 };
/** 100 answer tokens and no prompt: the latency per token is ms / 100 */
const call = (ms: number, inFlight: number, round = 0): LatencySample => ({
  ms,
  promptTokens: 0,
  completionTokens: 100,
  inFlight,
  round,
});
const fold = (samples: LatencySample[], from: LearnedLimit, b = bounds) =>
  samples.reduce((state, sample) => nextLimit(state, sample, b), from);

describe('a limit learned from latency', () => {
  it('grows by one a round while calls at the limit stay near the baseline', () => {
    let state = fold([call(1_000, 1)], initialLimit(bounds));
    expect(state).toMatchObject({ limit: 2, baselineMsPerToken: 10 });
    state = fold([call(1_050, 2), call(1_100, 2)], state);
    expect(allowed(state, bounds)).toBe(3);
    // calls below the limit say nothing of room for more
    expect(nextLimit(state, call(1_000, 1), bounds).limit).toBe(3);
  });

  it('drops at once to what the server works when calls queue, once a round', () => {
    const at8: LearnedLimit = { limit: 8, baselineMsPerToken: 10, round: 3, samples: 20 };
    // 8 in flight, each 1.6 times the baseline: the server works five at once
    expect(nextLimit(at8, call(1_600, 8, 3), bounds)).toMatchObject({ limit: 5, round: 4 });
    // eight times: it works one, but one call's latency overstates the queue: half a round
    const dropped = nextLimit(at8, call(8_000, 8, 3), bounds);
    expect(dropped).toMatchObject({ limit: 4, round: 4 });
    // the other calls sent before the drop carry the same queue: they drop nothing more
    expect(nextLimit(dropped, call(8_000, 8, 3), bounds)).toMatchObject({ limit: 4, round: 4 });
    // a call sent after it that still queues drops it again
    expect(nextLimit(dropped, call(4_000, 4, 4), bounds)).toMatchObject({ limit: 2, round: 5 });
  });

  it('drops by one at least, and never below the minimum nor above the maximum', () => {
    const b = { start: 4, min: 2, max: 5 };
    const at4: LearnedLimit = { limit: 4, baselineMsPerToken: 10, round: 0, samples: 9 };
    // 1.6 times the baseline with 4 in flight: Little's law says 2.5 at once
    expect(nextLimit(at4, call(1_600, 4), b).limit).toBe(2);
    expect(nextLimit({ ...at4, limit: 2 }, call(5_000, 2), b).limit).toBe(2);
    const grown = fold([call(1_000, 4), call(1_000, 4), call(1_000, 5), call(1_000, 5)], at4, b);
    expect(grown.limit).toBe(5);
    expect(allowed({ ...grown, limit: 40 }, b)).toBe(5);
    expect(allowed(undefined, b)).toBe(4);
  });

  it('takes a slow call alone in flight as a slower server, not a queue', () => {
    const at3: LearnedLimit = { limit: 3, baselineMsPerToken: 10, round: 0, samples: 5 };
    const alone = fold([call(3_000, 1), call(3_000, 1), call(3_000, 1)], at3);
    expect(alone.limit).toBe(3);
    expect(alone.baselineMsPerToken).toBeGreaterThan(14);
  });

  it('weighs latency by the tokens read and written', () => {
    const at2: LearnedLimit = { limit: 2, baselineMsPerToken: 10, round: 0, samples: 5 };
    // ten times the answer in ten times the time: no queue
    const long = { ...call(10_000, 2), completionTokens: 1_000 };
    expect(nextLimit(at2, long, bounds).limit).toBeGreaterThanOrEqual(2);
    // 800 prompt tokens cost what 100 answer tokens do
    const read = { ...call(2_000, 2), promptTokens: 800 };
    expect(nextLimit(at2, read, bounds).limit).toBeGreaterThanOrEqual(2);
  });
});

/**
 * A backlog of equal calls against a server that works `slots` at once and queues the rest first
 * come first served, step by step with no clock: what the server's queue held each time a call
 * was sent, how busy its slots were, and the limit at the end.
 */
function simulate(slots: number, start: number, calls: number) {
  const b = { start, min: 1, max: 16 };
  const SERVICE = 1_000;
  let state = initialLimit(b);
  let now = 0;
  let left = calls;
  const free = Array<number>(slots).fill(0);
  const flying: { sent: number; begins: number; ends: number; inFlight: number; round: number }[] =
    [];
  const queued: number[] = [];
  while (left > 0 || flying.length > 0) {
    while (left > 0 && flying.length < allowed(state, b)) {
      left -= 1;
      const slot = free.indexOf(Math.min(...free));
      const begins = Math.max(now, free[slot]!);
      free[slot] = begins + SERVICE;
      queued.push(flying.filter((c) => c.begins > now).length + (begins > now ? 1 : 0));
      flying.push({
        sent: now,
        begins,
        ends: begins + SERVICE,
        inFlight: flying.length + 1,
        round: state.round,
      });
    }
    flying.sort((x, y) => x.ends - y.ends);
    const done = flying.shift()!;
    now = done.ends;
    state = nextLimit(state, call(done.ends - done.sent, done.inFlight, done.round), b);
  }
  return { queued, state, busy: (calls * SERVICE) / (slots * now) };
}

describe('against a server that tells nothing of its slots', () => {
  it('one slot, starting at eight: halves the queue each round, then keeps it at one at most', () => {
    const { queued, state, busy } = simulate(1, 8, 60);
    expect(busy).toBe(1);
    expect(Math.max(...queued.slice(0, 8))).toBe(7);
    expect(Math.max(...queued.slice(15))).toBeLessThanOrEqual(1);
    expect(allowed(state, { start: 8, min: 1, max: 16 })).toBeLessThanOrEqual(2);
  });

  it('one slot, starting at one: never queues more than one', () => {
    const { queued, busy } = simulate(1, 1, 60);
    expect(Math.max(...queued)).toBe(1);
    expect(busy).toBe(1);
  });

  it('four slots, starting at one: keeps them mostly busy, and queues at most one past them', () => {
    const { queued, busy } = simulate(4, 1, 200);
    // the price of finding them: a queued call halves the limit, which then grows back
    expect(busy).toBeGreaterThan(0.75);
    expect(Math.max(...queued)).toBeLessThanOrEqual(1);
  });
});
