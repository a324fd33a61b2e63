/**
 * Forty one-call extractions sent at once to one model and read until final: how the slot tests
 * feed a server that works one request at a time. Every extraction must complete, each with its
 * own answer; what reached the server is for the test to judge.
 */
import { expect } from 'vitest';
import type { TestApi } from '@xt/api/testing';
import { waitFor } from '@xt/testkit';

export async function extractFortyAtOnce(api: TestApi, model: string): Promise<void> {
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
          model,
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
}
