import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type Dialect, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { OPENAI_CAPABILITIES } from './capabilities.ts';
import { probeCapabilities, type ProbeOptions } from './probe.ts';
import { ProbeError } from './probe-error.ts';

/** The probe against the stand-in in each dialect (issue #36 items 2 and 7). */

const model = 'qwen2.5:7b';

describe('probeCapabilities', () => {
  let standIn: ModelStandIn;
  beforeAll(async () => {
    standIn = await startModelStandIn({ models: [model], apiKey: 'sk-test' });
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.setDefaultBehaviour({});
    standIn.reset();
  });

  const probe = (dialect: Dialect, extra: Partial<ProbeOptions> = {}) => {
    standIn.setDialect(dialect);
    standIn.reset();
    return probeCapabilities({
      baseURL: standIn.url,
      apiKey: 'sk-test',
      providerModel: model,
      timeoutMs: 2_000,
      ...extra,
    });
  };

  /** Every probe call is marked, small, and kept out of the requests tests count. */
  function expectProbeTraffic(max = 6) {
    expect(standIn.requests).toHaveLength(0);
    expect(standIn.probes.length).toBeLessThanOrEqual(max);
    for (const call of standIn.probes) {
      expect(call.headers['x-xt-probe']).toBe('1');
      const body = call.body as { max_tokens?: number; max_completion_tokens?: number };
      expect(body.max_completion_tokens ?? body.max_tokens).toBeLessThanOrEqual(64);
    }
  }

  /** An unknown server may still cut a long prompt: only OpenAI's hosts and vLLM are known not to. */
  const openaiLike = { ...OPENAI_CAPABILITIES, cutsLongPrompts: true };

  it('OpenAI’s dialect: everything, in two calls', async () => {
    const result = await probe({});
    expect(result.capabilities).toEqual(openaiLike);
    expect(standIn.probes).toHaveLength(2);
    expect(result.tokensSpent).toBeGreaterThan(0);
    expectProbeTraffic(2);
  });

  it('the same through the service’s OpenAI client', async () => {
    const openai = new OpenAI({ baseURL: standIn.url, apiKey: 'sk-test' });
    const result = await probe({}, { openai });
    expect(result.capabilities).toEqual(openaiLike);
    expectProbeTraffic(2);
  });

  it('vLLM refusing fields, with its window', async () => {
    const result = await probe({
      server: 'vllm',
      contextTokens: 32_768,
      rejectFields: ['logprobs', 'prompt_cache_key', 'max_completion_tokens'],
    });
    expect(result.capabilities).toMatchObject({
      structuredOutput: 'json_schema',
      strict: true,
      logprobs: false,
      promptCacheKey: false,
      maxTokensField: 'max_tokens',
      temperature: true,
      contextTokens: 32_768,
      images: true,
      cutsLongPrompts: false,
    });
    expect(standIn.probes).toHaveLength(3);
    expectProbeTraffic();
  });

  it('vLLM without guided decoding: the schema goes in the prompt', async () => {
    const result = await probe({ server: 'vllm', structuredOutput: 'ignored' });
    expect(result.capabilities).toMatchObject({ structuredOutput: 'prompt', strict: false });
    expect(result.notes).toContain('strict json_schema accepted but not enforced');
    expectProbeTraffic();
  });

  it('a schema accepted but not enforced is not supported: json_object with the schema shown', async () => {
    const result = await probe({
      server: 'lmstudio',
      structuredOutput: 'unenforced',
      contextTokens: 8_192,
    });
    expect(result.capabilities).toMatchObject({
      structuredOutput: 'json_object',
      schemaKeywords: { refs: false, pattern: false, enum: false, anyOf: false },
      contextTokens: 8_192,
    });
    expectProbeTraffic();
  });

  it('llama.cpp text-only, one slot, loading: waits, then reads n_ctx and slots', async () => {
    const result = await probe({
      server: 'llamacpp',
      contextTokens: 4_096,
      slots: 1,
      images: false,
      loading: 2,
      logprobs: false,
    });
    expect(result.capabilities).toMatchObject({
      structuredOutput: 'json_schema',
      images: false,
      logprobs: false,
      contextTokens: 4_096,
      slots: 1,
      cutsLongPrompts: true,
    });
    expect(result.notes).toContain('no vision, as the server says');
  });

  it('Ollama json_object only and text-only: refused json_schema, no image call needed', async () => {
    const result = await probe({
      server: 'ollama',
      structuredOutput: 'json_object_only',
      images: false,
      contextTokens: 4_096,
    });
    expect(result.capabilities).toMatchObject({
      structuredOutput: 'json_object',
      images: false,
      contextTokens: 4_096,
    });
    expect(standIn.probes).toHaveLength(2);
    expectProbeTraffic();
  });

  it('an image part refused at the call, where the server told nothing', async () => {
    const result = await probe({ server: 'vllm', images: false });
    expect(result.capabilities.images).toBe(false);
    expect(result.notes).toContain('image part refused (400)');
  });

  it('a refused key, a missing model, no answer in time or no server: a ProbeError', async () => {
    const wrongKey = await probe({}, { apiKey: 'sk-wrong' }).catch((e: unknown) => e);
    expect(wrongKey).toMatchObject({ reason: 'unauthorized' });
    expect((wrongKey as Error).message).not.toContain('sk-wrong');

    standIn.setDefaultBehaviour({ status: 404 });
    const noModel = await probe({}).catch((e: unknown) => e);
    expect(noModel).toBeInstanceOf(ProbeError);
    expect(noModel).toMatchObject({ reason: 'no-model' });
    expect((noModel as Error).message).toContain(model);

    const notPulled = await probe({ server: 'ollama' }, { providerModel: 'mistral' }).catch(
      (e: unknown) => e,
    );
    expect(notPulled).toMatchObject({ reason: 'no-model' });

    standIn.setDefaultBehaviour({ hang: true });
    const slow = await probe({}, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(slow).toMatchObject({ reason: 'timeout' });

    const gone = await probeCapabilities({
      baseURL: 'http://127.0.0.1:9/v1?api-key=secret',
      apiKey: 'sk-test',
      providerModel: model,
      timeoutMs: 1_000,
    }).catch((e: unknown) => e);
    expect(gone).toMatchObject({ reason: 'unreachable' });
    expect((gone as Error).message).not.toContain('secret');
  });
});
