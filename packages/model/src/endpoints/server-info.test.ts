import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { createHttp } from './http.ts';
import { ProbeError } from './probe-error.ts';
import { OLLAMA_DEFAULT_CONTEXT, readServerInfo } from './server-info.ts';

/** What each kind of server tells about itself, read as issue #36 item 2 asks. */

const model = 'llama3.1:8b';

describe('readServerInfo', () => {
  let standIn: ModelStandIn;
  beforeAll(async () => {
    standIn = await startModelStandIn({ models: [model], apiKey: 'k' });
  });
  afterAll(() => standIn.close());

  const read = (apiKey = 'k') =>
    readServerInfo({
      baseURL: standIn.url,
      providerModel: model,
      http: createHttp({ apiKey }),
      timeoutMs: 2_000,
    });

  it('OpenAI tells nothing', async () => {
    standIn.setDialect({});
    expect(await read()).toMatchObject({
      kind: null,
      contextTokens: null,
      slots: null,
      images: null,
    });
  });

  it('vLLM: max_model_len', async () => {
    standIn.setDialect({ server: 'vllm', contextTokens: 8_192 });
    expect(await read()).toMatchObject({
      kind: 'vllm',
      contextTokens: 8_192,
      cutsLongPrompts: false,
    });
  });

  it('llama.cpp: n_ctx, total_slots and vision from /props, not the trained n_ctx_train', async () => {
    standIn.setDialect({ server: 'llamacpp', contextTokens: 4_096, slots: 2, images: false });
    expect(await read()).toMatchObject({
      kind: 'llamacpp',
      contextTokens: 4_096,
      slots: 2,
      images: false,
    });
  });

  it('Ollama: num_ctx before the model runs, /api/ps once it does, else the default', async () => {
    standIn.setDialect({ server: 'ollama', contextTokens: 8_192, images: false });
    standIn.reset();
    expect(await read()).toMatchObject({ kind: 'ollama', contextTokens: 8_192, images: false });
    expect((await read()).notes[0]).toContain('from num_ctx');
    await fetch(`${standIn.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect((await read()).notes[0]).toContain('from /api/ps');
    standIn.setDialect({ server: 'ollama' });
    standIn.reset();
    expect(await read()).toMatchObject({ contextTokens: OLLAMA_DEFAULT_CONTEXT, images: true });
  });

  it('LM Studio: the loaded context and the model type', async () => {
    standIn.setDialect({ server: 'lmstudio', contextTokens: 16_384, images: false });
    expect(await read()).toMatchObject({ kind: 'lmstudio', contextTokens: 16_384, images: false });
  });

  it('a refused key or no server at all is a ProbeError naming neither key nor credentials', async () => {
    const refused = await read('wrong-key').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProbeError);
    expect(refused).toMatchObject({ reason: 'unauthorized' });
    const gone = await readServerInfo({
      baseURL: 'http://user:secret@127.0.0.1:9/v1',
      providerModel: model,
      http: createHttp({ apiKey: 'sk-secret' }),
      timeoutMs: 1_000,
    }).catch((e: unknown) => e);
    expect(gone).toMatchObject({ reason: 'unreachable' });
    expect((gone as Error).message).toBe('http://127.0.0.1:9/v1 did not answer.');
  });
});
