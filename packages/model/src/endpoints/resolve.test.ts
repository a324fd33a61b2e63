import { describe, expect, it } from 'vitest';
import { LEAST_CAPABILITIES, OPENAI_CAPABILITIES } from './capabilities.ts';
import { memoryCapabilityStore, type CapabilityStore } from './capability-store.ts';
import { modelRegistry } from './registry.ts';
import { capabilityResolver, type ProbeModel } from './resolve.ts';

const { registry } = modelRegistry(
  [
    {
      name: 'local',
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      contextTokens: 8_192,
      models: [{ id: 'llama', capabilities: { images: false } }],
    },
    { name: 'cloud', kind: 'openai', models: [{ id: 'gpt-4.1' }] },
  ],
  { apiKey: '', baseURL: undefined, modelMap: {} },
  {},
);
const local = registry.route('llama')!;

function counting(found = { ...LEAST_CAPABILITIES, images: true, contextTokens: 32_768 }) {
  let calls = 0;
  const probe: ProbeModel = async () => {
    calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { capabilities: found, probedAt: new Date().toISOString(), tokensSpent: 10, notes: [] };
  };
  return { probe, calls: () => calls };
}

describe('capabilityResolver', () => {
  it('probes a model once for every process sharing the store, and lays the operator over it', async () => {
    const store = memoryCapabilityStore();
    const { probe, calls } = counting();
    const a = capabilityResolver({ store, probe, probeWaitMs: 5_000 });
    const b = capabilityResolver({ store, probe, probeWaitMs: 5_000 });
    const all = await Promise.all([a.forRoute(local), a.forRoute(local), b.forRoute(local)]);
    expect(calls()).toBe(1);
    for (const caps of all)
      // the operator's images: false wins; the smallest window stated wins
      expect(caps).toMatchObject({ images: false, contextTokens: 8_192 });
  });

  it('takes OpenAI at its word without probing', async () => {
    const { probe, calls } = counting();
    const resolver = capabilityResolver({ store: memoryCapabilityStore(), probe, probeWaitMs: 0 });
    expect(await resolver.forRoute(registry.route('gpt-4.1')!)).toEqual(OPENAI_CAPABILITIES);
    expect(calls()).toBe(0);
  });

  it('keeps serving what it read while the store is down', async () => {
    const inner = memoryCapabilityStore();
    let down = false;
    const store: CapabilityStore = {
      ...inner,
      get: (...args) => (down ? Promise.reject(new Error('redis down')) : inner.get(...args)),
    };
    const resolver = capabilityResolver({
      store,
      probe: counting().probe,
      probeWaitMs: 0,
      memoryMs: 0,
    });
    await resolver.forRoute(local);
    down = true;
    expect(await resolver.forRoute(local)).toMatchObject({ contextTokens: 8_192 });
  });

  it('shares a downgrade with every process', async () => {
    const store = memoryCapabilityStore();
    const a = capabilityResolver({ store, probe: counting().probe, probeWaitMs: 0, memoryMs: 0 });
    const b = capabilityResolver({ store, probe: counting().probe, probeWaitMs: 0, memoryMs: 0 });
    const caps = await a.forRoute(local);
    await a.downgrade(local, { ...caps, logprobs: false, contextTokens: 2_048 });
    expect(await b.forRoute(local)).toMatchObject({ logprobs: false, contextTokens: 2_048 });
  });

  it("keeps only what a refusal changed, not the operator's settings, as the server's", async () => {
    const store = memoryCapabilityStore();
    const a = capabilityResolver({ store, probe: counting().probe, probeWaitMs: 0, memoryMs: 0 });
    const effective = await a.forRoute(local); // images: false and 8,192 tokens are the operator's
    await a.downgrade(local, { ...effective, logprobs: false });
    const stored = await store.get('local', 'llama');
    expect(stored?.capabilities).toMatchObject({
      logprobs: false,
      images: true,
      contextTokens: 32_768,
    });
    expect(stored?.notes.at(-1)).toMatch(/^downgraded after a refusal/);
    // ...so an operator who drops the settings gets what the server does, less what it refused.
    const { registry: unset } = modelRegistry(
      [
        {
          name: 'local',
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:9/v1',
          models: [{ id: 'llama' }],
        },
      ],
      { apiKey: '', baseURL: undefined, modelMap: {} },
      {},
    );
    const b = capabilityResolver({ store, probe: counting().probe, probeWaitMs: 0, memoryMs: 0 });
    expect(await b.forRoute(unset.route('llama')!)).toMatchObject({
      logprobs: false,
      images: true,
      contextTokens: 32_768,
    });
  });

  it('keeps a smaller window a cut prompt told, below the one the operator stated', async () => {
    const store = memoryCapabilityStore();
    const a = capabilityResolver({ store, probe: counting().probe, probeWaitMs: 0, memoryMs: 0 });
    const effective = await a.forRoute(local);
    await a.downgrade(local, { ...effective, contextTokens: 2_048 });
    expect((await store.get('local', 'llama'))?.capabilities.contextTokens).toBe(2_048);
    expect(await a.forRoute(local)).toMatchObject({ contextTokens: 2_048, images: false });
  });
});
