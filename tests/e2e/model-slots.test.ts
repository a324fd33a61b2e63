/**
 * A server that works one request at a time and queues the rest (llama.cpp with one slot, which
 * it tells as `total_slots`), 100 ms a call, fed 40 extractions at once by two worker processes
 * (issue #36): every extraction completes with exactly one call, none waits in the server's
 * queue, and none is abandoned after the server began it. The calls wait in the workers for the
 * endpoint's slot, counted across both processes in Redis.
 */
import { describe, expect } from 'vitest';
import { startTestWorker } from '@xt/api/testing';
import { waitFor } from '@xt/testkit';
import { startDialects } from '../support/dialects.ts';
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
        const schema = await api.request('POST', '/v1/schemas', {
          json: {
            name: 'Invoice',
            structure: { type: 'object', properties: { total: { type: 'number' } } },
          },
        });
        const created = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            api.request('POST', '/v1/extractions', {
              json: {
                schema_id: schema.body.data.id,
                type: 'text',
                source: `Total: ${i + 1}`,
                model: 'one-slot',
              },
              headers: { prefer: 'respond-async' },
            }),
          ),
        );
        expect(created.map((r) => r.status)).toEqual(Array(40).fill(202));
        // one list request a poll: forty record requests a poll would meet the rate limit
        const done = await waitFor(
          async () => {
            const page = await api.request('GET', '/v1/extractions?limit=100');
            const records = page.body.data.data as { status: string; output: { total: number } }[];
            return records.every((r) => r.status === 'completed' || r.status === 'failed')
              ? records
              : undefined;
          },
          120_000,
          500,
        );
        expect(done.map((r) => r.status)).toEqual(Array(40).fill('completed'));
        expect(done.map((r) => r.output.total).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 40 }, (_, i) => i + 1),
        );
        expect(server.requests).toHaveLength(40);
        expect(server.stats).toMatchObject({ maxInFlight: 1, maxQueued: 0, abandoned: 0 });
      } finally {
        await second.stop();
      }
    },
  );
});
