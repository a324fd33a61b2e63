/**
 * A server that works one request at a time, queues the rest and tells nothing of it (Ollama at
 * its default parallelism, a generic compatible server), 300 ms a call, fed 40 extractions at
 * once by two worker processes that start by sending it four at a time: the workers learn from
 * the calls' latency that it works one, and from then on its queue stays small (one, now and then
 * two, as the limit tries one more). Every extraction completes with exactly one call and none
 * is abandoned after the server began it.
 */
import { describe, expect } from 'vitest';
import { startTestWorker } from '@xt/api/testing';
import { startDialects } from '../support/dialects.ts';
import { extractFortyAtOnce } from '../support/forty-at-once.ts';
import { stackTest } from '../support/stack.ts';

const dialects = await startDialects({ 'tells-nothing': { slots: 1 } });
const server = dialects.servers['tells-nothing']!;
// long enough that a queue shows in latency above the workers' 200 ms look for a free slot
server.setDefaultBehaviour({ oracle: true, delayMs: 300 });

const env = { MODEL_ENDPOINTS: dialects.endpoints };
const workerEnv = { ...env, MODEL_LEARNED_SLOTS_START: '4' };
const test = stackTest({ api: env, worker: workerEnv });
test.afterAll(() => dialects.close());

/**
 * Requests (the probe's first) by which the queue must be gone: two rounds of halving take about
 * six calls; the rest is slack.
 */
const LEARNING = 12;

describe('a server with one slot that tells nothing of it', () => {
  test(
    'is found to work one at a time, and every extraction completes',
    { timeout: 180_000 },
    async ({ api, worker: _first }) => {
      const second = await startTestWorker(api, server.url, workerEnv);
      try {
        await extractFortyAtOnce(api, 'tells-nothing');
        expect(server.requests).toHaveLength(40);
        const { abandoned, maxInFlight, queuedOnArrival } = server.stats;
        expect({ abandoned, maxInFlight }).toEqual({ abandoned: 0, maxInFlight: 1 });
        // four at once at first: the server queued some while the limit was learned
        expect(Math.max(...queuedOnArrival.slice(0, LEARNING))).toBeGreaterThan(1);
        const after = queuedOnArrival.slice(LEARNING);
        expect(Math.max(...after)).toBeLessThanOrEqual(2);
        expect(after.reduce((sum, queued) => sum + queued, 0) / after.length).toBeLessThan(1);
      } finally {
        await second.stop();
      }
    },
  );
});
