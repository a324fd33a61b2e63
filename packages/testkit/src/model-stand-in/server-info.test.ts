import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from './index.ts';

/** What each server tells about itself (issue #36), following the dialect's window and slots. */

describe('stand-in server self-description', () => {
  let standIn: ModelStandIn;
  let root: string;
  beforeAll(async () => {
    standIn = await startModelStandIn({ models: ['llama3.1:8b'] });
    root = standIn.url.replace(/\/v1$/, '');
  });
  afterAll(() => standIn.close());
  beforeEach(() => standIn.reset());

  async function get(url: string, init?: RequestInit) {
    const res = await fetch(url, init);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('OpenAI lists its models and has none of the other servers’ endpoints', async () => {
    standIn.setDialect({});
    const models = await get(`${standIn.url}/models`);
    expect(models.body.data).toEqual([
      { id: 'llama3.1:8b', object: 'model', created: 0, owned_by: 'stand-in' },
    ]);
    for (const path of ['/props', '/api/ps', '/api/v0/models'])
      expect((await get(`${root}${path}`)).status).toBe(404);
  });

  it('vLLM lists max_model_len', async () => {
    standIn.setDialect({ server: 'vllm', contextTokens: 8_192 });
    const { body } = await get(`${standIn.url}/models`);
    expect(body.data).toEqual([
      expect.objectContaining({ id: 'llama3.1:8b', max_model_len: 8_192 }),
    ]);
  });

  it('llama.cpp tells n_ctx, total_slots and vision at /props, its slots at /slots', async () => {
    standIn.setDialect({ server: 'llamacpp', contextTokens: 4_096, slots: 1, images: false });
    const props = await get(`${root}/props`);
    expect(props.body).toMatchObject({
      default_generation_settings: { n_ctx: 4_096 },
      total_slots: 1,
      modalities: { vision: false },
    });
    const slots = (await fetch(`${root}/slots`).then((r) => r.json())) as unknown[];
    expect(slots).toEqual([expect.objectContaining({ id: 0, n_ctx: 4_096 })]);
  });

  it('Ollama: /api/show with num_ctx and capabilities, /api/ps once the model has run', async () => {
    standIn.setDialect({ server: 'ollama', contextTokens: 4_096, images: false });
    const show = await get(`${root}/api/show`, {
      method: 'POST',
      body: JSON.stringify({ model: 'llama3.1:8b' }),
    });
    expect(show.body).toMatchObject({
      parameters: expect.stringContaining('num_ctx 4096') as unknown,
      model_info: { 'general.architecture': 'llama', 'llama.context_length': 131_072 },
      capabilities: ['completion'],
    });
    const unknown = await get(`${root}/api/show`, {
      method: 'POST',
      body: JSON.stringify({ model: 'mistral' }),
    });
    expect(unknown.status).toBe(404);
    expect((await get(`${root}/api/ps`)).body.models).toEqual([]);
    await fetch(`${standIn.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect((await get(`${root}/api/ps`)).body.models).toEqual([
      expect.objectContaining({ name: 'llama3.1:8b', context_length: 4_096 }),
    ]);
  });

  it('LM Studio lists max and loaded context and whether the model sees images', async () => {
    standIn.setDialect({ server: 'lmstudio', contextTokens: 16_384 });
    const { body } = await get(`${root}/api/v0/models`);
    expect(body.data).toEqual([
      expect.objectContaining({
        id: 'llama3.1:8b',
        type: 'vlm',
        max_context_length: 131_072,
        loaded_context_length: 16_384,
      }),
    ]);
  });
});
