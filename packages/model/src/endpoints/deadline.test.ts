import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { createModelClient } from '../client.ts';
import { extract } from '../extract.ts';

let standIn: ModelStandIn;
beforeAll(async () => {
  standIn = await startModelStandIn({ defaultBehaviour: { hang: true } });
});
afterAll(() => standIn.close());

const client = (timeoutPer1kTokensMs: number) =>
  createModelClient({
    apiKey: 'none',
    baseURL: standIn.url,
    modelMap: {},
    timeoutMs: 1_000,
    maxRetries: 0,
    timeoutPer1kTokensMs,
  });

describe("a call's deadline", () => {
  it('is a floor plus an allowance per thousand prompt tokens', () => {
    expect(client(2_000).callTimeoutMs(0)).toBe(1_000);
    expect(client(2_000).callTimeoutMs(25_500)).toBe(1_000 + 26 * 2_000);
    expect(client(0).callTimeoutMs(25_500)).toBe(1_000);
  });

  it('gives a long prompt longer before the call is abandoned', async () => {
    // about 4,000 prompt tokens: 1 s + 4 × 0.5 s
    const text = 'word '.repeat(3_200);
    const started = Date.now();
    await expect(
      extract({
        client: client(500),
        model: 'local',
        structure: { type: 'object', properties: { a: { type: 'string' } } },
        source: { parts: [{ kind: 'text', text }] },
      }),
    ).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
  });
});
