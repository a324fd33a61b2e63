/**
 * A server that works one request at a time and queues the rest (llama.cpp with one slot, which
 * it tells as `total_slots`), 100 ms a call, fed 40 extractions at once by two worker processes
 * (issue #36): every extraction completes with exactly one call, none waits in the server's
 * queue, and none is abandoned after the server began it. The calls wait in the workers for the
 * endpoint's slot, counted across both processes in Redis.
 */
import { describe, expect } from 'vitest';
import { startTestWorker } from '@xt/api/testing';
import { startDialects } from '../support/dialects.ts';
import { extractFortyAtOnce } from '../support/forty-at-once.ts';
import { stackTest } from '../support/stack.ts';

const dialects = await startDialects({ 'one-slot': { server: 'llamacpp', slots: 1 } });
const server = dialects.servers['one-slot']!;
server.setDefaultBehaviour({ oracle: true, delayMs: 100 });

const env = { MODEL_ENDPOINTS: dialects.endpoints };
const test = stackTest({ api: env, worker: env });
test.afterAll(() => dialects.close());

describe('a server with one slot', () => {
  test(
    'gets one call per extraction, one at a time, from every worker together',
    {
      timeout: 180_000,
    },
    async ({ api, worker: _first }) => {
      const second = await startTestWorker(api, server.url, env);
      try {
        await extractFortyAtOnce(api, 'one-slot');
        expect(server.requests).toHaveLength(40);
        expect(server.stats).toMatchObject({ maxInFlight: 1, maxQueued: 0, abandoned: 0 });
      } finally {
        await second.stop();
      }
    },
  );
});
