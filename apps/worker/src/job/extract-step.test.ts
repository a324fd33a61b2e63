import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient, modelRegistry, OPENAI_CAPABILITIES } from '@xt/model';
import { startModelStandIn, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { extractStep } from './extract-step.ts';
import { claimedRow } from '../../test/claimed-row.ts';

let standIn: ModelStandIn;
beforeAll(async () => {
  standIn = await startModelStandIn({
    defaultBehaviour: {
      respond: () => ({ total: 12.5 }),
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    },
  });
});
afterAll(() => standIn.close());

describe('extractStep', () => {
  it("sends the row's schema snapshot, instruction and source to its model", async () => {
    const client = createModelClient({
      apiKey: 'sk-test-abcdefghijklmnop',
      baseURL: standIn.url,
      modelMap: { 'gpt-4.1-mini': 'mini-at-provider' },
      timeoutMs: 10_000,
      maxRetries: 0,
    });
    const row = claimedRow({ model: 'gpt-4.1-mini', instruction: 'Amounts in euros.' });
    const { registry } = modelRegistry(
      undefined,
      { apiKey: 'k', baseURL: undefined, modelMap: {} },
      {},
    );
    const result = await extractStep(
      { client, route: registry.route('gpt-4.1-mini')!, capabilities: OPENAI_CAPABILITIES },
      row,
      { parts: [{ kind: 'text', text: 'Total due: 12.50 EUR' }] },
      new AbortController().signal,
    );
    expect(result).toMatchObject({ output: { total: 12.5 }, totalTokens: 120, calls: 1 });
    const sent = standIn.requests[0]!;
    expect(sent.model).toBe('mini-at-provider');
    expect(sent.text).toContain('Total due: 12.50 EUR');
    expect(sent.text).toContain('Amounts in euros.');
    expect(JSON.stringify(sent.schema)).toContain('"total"');
  });
});
