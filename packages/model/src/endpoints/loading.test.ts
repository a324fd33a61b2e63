import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { createModelClient } from '../client.ts';
import { extract } from '../extract.ts';

const loading = {
  status: 503,
  body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
};

let standIn: ModelStandIn;
beforeAll(async () => {
  standIn = await startModelStandIn({ defaultBehaviour: { output: { total: 3 } } });
});
afterAll(() => standIn.close());
beforeEach(() => standIn.reset());

const run = (loadWaitMs: number) =>
  extract({
    client: createModelClient({
      apiKey: 'none',
      baseURL: standIn.url,
      modelMap: {},
      timeoutMs: 10_000,
      maxRetries: 0,
      loadWaitMs,
    }),
    model: 'local',
    structure: { type: 'object', properties: { total: { type: 'number' } } },
    source: { parts: [{ kind: 'text', text: 'Total 3' }] },
  });

describe('a server loading its model', () => {
  it('is waited for, and the call answered once it is ready', async () => {
    standIn.behave([loading, loading]);
    const result = await run(30_000);
    expect(result.output).toEqual({ total: 3 });
    expect(standIn.requests).toHaveLength(3);
    // the two 503s spent nothing
    expect(result.calls).toBe(1);
  });

  it('fails retryable once the wait is over', async () => {
    standIn.setDefaultBehaviour(loading);
    await expect(run(0)).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: true });
  });
});
