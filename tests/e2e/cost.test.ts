/**
 * Cost through the whole service (docs/cost.md): records split the tokens as the model stand-in
 * reported them, price them at the worker's table (here overridden with MODEL_PRICES), report
 * the prompt cache's part on a repeated run, and a reused answer costs nothing while recording
 * what the original cost as saved.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPool, startModelStandIn, type AppProcess, type ModelStandIn } from '@xt/testkit';
import {
  checkResponsesAgainstOpenApi,
  startTestApi,
  startTestWorker,
  type TestApi,
} from '@xt/api/testing';

checkResponsesAgainstOpenApi();

/** Twenty described fields: with the rules, a prefix over the 1,024 tokens a cache needs. */
const STRUCTURE = {
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [
      `field_${i}`,
      {
        type: 'string',
        describe: `The value printed beside the label "Field ${i}", copied as written with any codes or prefixes.`,
      },
    ]),
  ),
};
// USD per 1M tokens: round figures so the expected cost is plain arithmetic.
const PRICES = { input: 10, cachedInput: 1, output: 100 };

let api: TestApi;
let model: ModelStandIn;
let worker: AppProcess;
let db: pg.Pool;
let schemaId: string;

beforeAll(async () => {
  model = await startModelStandIn();
  api = await startTestApi({ EXTRACTION_WAIT_SECONDS: '60', CACHE_MAX_AGE_SECONDS: '604800' });
  worker = await startTestWorker(api, model.url, {
    MODEL_PRICES: JSON.stringify({ 'gpt-4.1': PRICES }),
  });
  db = openTestPool(api.database.url);
  const schema = await api.request('POST', '/v1/schemas', {
    json: { name: 'Twenty fields', structure: STRUCTURE },
  });
  expect(schema.status, schema.text).toBe(201);
  schemaId = schema.body.data.id as string;
});

afterAll(async () => {
  await worker?.stop();
  await db?.end();
  await api?.close();
  await model?.close();
});

const extract = (source: string) =>
  api.request('POST', '/v1/extractions', {
    json: { schema_id: schemaId, type: 'text', source, instruction: 'Codes in upper case.' },
  });

async function records(id: string) {
  const single = await api.request('GET', `/v1/extractions/${id}`);
  const list = await api.request('GET', '/v1/extractions?limit=100');
  return {
    single: single.body.data,
    listed: list.body.data.data.find((r: { id: string }) => r.id === id),
  };
}

const expectedCost = (u: {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}) =>
  ((u.inputTokens - u.cachedInputTokens) * PRICES.input +
    u.cachedInputTokens * PRICES.cachedInput +
    u.outputTokens * PRICES.output) /
  1_000_000;

describe('usage on the records', () => {
  it('splits the tokens, prices them, and shows the cached prefix of a repeated run', async () => {
    model.reset();
    const first = await extract('Field 1: ALPHA-1\nField 2: the first source');
    expect(first.status, first.text).toBe(200);
    const second = await extract('Field 1: BETA-2\nA second source, different from the first.');
    expect(second.status, second.text).toBe(200);

    const one = await records(first.body.data.id);
    const two = await records(second.body.data.id);
    expect(one.single.usage.cachedInputTokens).toBe(0);
    expect(two.single.usage.cachedInputTokens).toBeGreaterThanOrEqual(1024);
    for (const { single, listed } of [one, two]) {
      const usage = single.usage;
      expect(usage.inputTokens + usage.outputTokens).toBe(single.totalTokens);
      expect(usage.estimatedCostUsd).toBeCloseTo(expectedCost(usage), 8);
      expect(listed.usage).toEqual(usage);
    }
    // The prefix the cache applies to is the same bytes in both requests: all but the source.
    const [a, b] = model.requests.map((r) => r.body as { messages: unknown[] });
    expect(a?.messages.slice(0, -1)).toEqual(b?.messages.slice(0, -1));
    expect(a?.messages.at(-1)).not.toEqual(b?.messages.at(-1));
  });

  it('is zero for a reused answer, which records what the original cost as saved', async () => {
    const source = `Field 1: GAMMA-${Date.now()}`;
    const original = await extract(source);
    expect(original.status, original.text).toBe(200);
    const copy = await extract(source);
    expect(copy.body.data.reused).toEqual({ extractionId: original.body.data.id });

    const { single, listed } = await records(copy.body.data.id);
    const zero = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, estimatedCostUsd: 0 };
    expect(single.usage).toEqual(zero);
    expect(listed.usage).toEqual(zero);
    const paid = (await records(original.body.data.id)).single.usage.estimatedCostUsd;
    expect(paid).toBeGreaterThan(0);
    const { rows } = await db.query<{ saved_usd: number }>(
      'select saved_usd from extractions where id = $1',
      [copy.body.data.id],
    );
    expect(rows[0]?.saved_usd).toBeCloseTo(paid, 8);
  });
});
