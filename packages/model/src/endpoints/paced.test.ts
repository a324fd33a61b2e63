import { APIConnectionTimeoutError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { ScheduledCall } from '../client.ts';
import { memoryLearnedLimits } from './learned-limit-store.ts';
import { pacedSchedule, type PacingOptions } from './paced.ts';
import type { Endpoint } from './registry.ts';
import type { EndpointSlots, Slot } from './slots.ts';

const endpoint = (kind: Endpoint['kind'], maxInFlight?: number): Endpoint => ({
  name: 'local',
  kind,
  baseURL: 'http://127.0.0.1:1/v1',
  apiKey: 'k',
  apiVersion: undefined,
  maxInFlight,
  contextTokens: undefined,
  timeoutMs: undefined,
});

/** Slots that let every call through at once, saying which slot each was run in. */
function recordingSlots(inFlight: number) {
  const runs: Slot[] = [];
  const slots: EndpointSlots = {
    run: (slot, call) => {
      runs.push(slot);
      return call(() => Promise.resolve(inFlight));
    },
  };
  return { runs, slots };
}

function pacing(inFlight = 1, clock = { now: 0 }) {
  const { runs, slots } = recordingSlots(inFlight);
  const learned = memoryLearnedLimits({ start: 2, min: 1, max: 8 });
  const options: PacingOptions = {
    slots,
    learned,
    told: (e) => e.maxInFlight,
    learns: (e) => e.kind === 'openai-compatible',
    inProcess: (call) => call(),
    now: () => clock.now,
  };
  return { runs, learned, options, clock };
}

const about = (): ScheduledCall => ({
  providerModel: 'qwen',
  promptTokens: 800,
  waitedForLoading: false,
});
/** an answer of 100 tokens after `ms` of the injected clock */
const answer = (clock: { now: number }, ms: number) => () => {
  clock.now += ms;
  return Promise.resolve({ usage: { completion_tokens: 100 } });
};

describe('pacing an endpoint', () => {
  it('runs in the slots told, learning nothing', async () => {
    const { runs, learned, options, clock } = pacing();
    await pacedSchedule(options, endpoint('openai-compatible', 3))(answer(clock, 50), about());
    expect(runs).toEqual([{ endpoint: 'local', limit: 3 }]);
    expect(await learned.read('local', 'qwen')).toBeUndefined();
  });

  it("never learns OpenAI's own latency", async () => {
    const { runs, learned, options, clock } = pacing();
    await pacedSchedule(options, endpoint('openai'))(answer(clock, 50), about());
    expect(runs).toEqual([{ endpoint: 'local', limit: undefined }]);
    expect(await learned.read('local', 'qwen')).toBeUndefined();
  });

  it("learns from each call's latency per token, in the model's own slots", async () => {
    const { runs, learned, options, clock } = pacing(2);
    const schedule = pacedSchedule(options, endpoint('openai-compatible'));
    await schedule(answer(clock, 2_000), about());
    expect(runs[0]).toMatchObject({ endpoint: 'local', model: 'qwen', limit: 2 });
    // 100 answer tokens and 800 prompt tokens weigh 200: 10 ms a token, at the limit: one of
    // the two calls in a row that would make room for a third
    expect(await learned.read('local', 'qwen')).toMatchObject({
      baselineMsPerToken: 10,
      limit: 2,
      good: 1,
      samples: 1,
    });
    // four times as slow with two in flight: a queue
    await schedule(answer(clock, 8_000), about());
    expect(await learned.read('local', 'qwen')).toMatchObject({ limit: 1, round: 1 });
    await expect(runs[1]!.relimit?.()).resolves.toBe(1);
  });

  it('learns from a deadline run out, and nothing from a call that waited for loading', async () => {
    const { learned, options, clock } = pacing(2);
    const schedule = pacedSchedule(options, endpoint('openai-compatible'));
    await schedule(answer(clock, 2_000), about());
    const loading = about();
    loading.waitedForLoading = true;
    await schedule(answer(clock, 60_000), loading);
    expect(await learned.read('local', 'qwen')).toMatchObject({ samples: 1 });
    const timedOut = () => {
      clock.now += 120_000;
      return Promise.reject(new APIConnectionTimeoutError());
    };
    await expect(schedule(timedOut, about())).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(await learned.read('local', 'qwen')).toMatchObject({ samples: 2, limit: 1 });
  });
});
