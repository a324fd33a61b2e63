import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from './index.ts';

/**
 * A window smaller than the prompt (issue #36): cut silently, keeping the end as Ollama does,
 * with the oracle answering from the kept text alone; or refused in vLLM's words.
 */

const schema = {
  type: 'object',
  properties: {
    start_code: { type: ['string', 'null'] },
    middle_code: { type: ['string', 'null'] },
    end_code: { type: ['string', 'null'] },
  },
  required: ['start_code', 'middle_code', 'end_code'],
  additionalProperties: false,
};
const filler = 'The parties agree to the terms set out below in good faith.\n'.repeat(150);
const source = `<source>\nStart code: S-1\n${filler}Middle code: M-2\n${filler}End code: E-3\n</source>`;
const request = {
  model: 'llama3.1:8b',
  messages: [
    { role: 'system', content: 'You extract data.' },
    { role: 'user', content: source },
  ],
  response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema } },
  max_tokens: 100,
};

interface Answer {
  choices?: { message: { content: string } }[];
  usage?: { prompt_tokens: number };
  error?: { message?: string };
}

async function post(url: string, payload: unknown) {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

describe('stand-in context window', () => {
  let standIn: ModelStandIn;
  beforeAll(async () => {
    standIn = await startModelStandIn({
      defaultBehaviour: { oracle: true },
      models: ['llama3.1:8b'],
    });
  });
  afterAll(() => standIn.close());

  it('answers from the whole prompt when it fits', async () => {
    standIn.setDialect({ contextTokens: 100_000 });
    const { body } = await post(standIn.url, request);
    expect(JSON.parse(body.choices?.[0]?.message.content ?? '')).toEqual({
      start_code: 'S-1',
      middle_code: 'M-2',
      end_code: 'E-3',
    });
  });

  it('truncate: keeps the end silently, answers from it and bills only it', async () => {
    const full = Math.ceil(JSON.stringify(request).length / 4);
    standIn.setDialect({ contextTokens: 2_000, overflow: 'truncate' });
    const { status, body } = await post(standIn.url, request);
    expect(full).toBeGreaterThan(4_000);
    expect(status).toBe(200);
    expect(JSON.parse(body.choices?.[0]?.message.content ?? '')).toEqual({
      start_code: null,
      middle_code: null,
      end_code: 'E-3',
    });
    expect(body.usage?.prompt_tokens).toBeLessThanOrEqual(2_000);
    expect(body.usage?.prompt_tokens).toBeGreaterThan(1_990);
    // what reached it is recorded whole: a test sees what the service sent
    expect(standIn.requests.at(-1)?.text).toContain('Start code: S-1');
  });

  it('error: refuses in vLLM’s words, counting the completion asked for', async () => {
    standIn.setDialect({ server: 'vllm', contextTokens: 2_000, overflow: 'error' });
    const prompt = Math.ceil(JSON.stringify(request).length / 4);
    const { status, body } = await post(standIn.url, request);
    expect(status).toBe(400);
    expect(body.error?.message).toBe(
      `This model's maximum context length is 2000 tokens. However, you requested ${prompt + 100} tokens (${prompt} in the messages, 100 in the completion). Please reduce the length of the messages or completion.`,
    );
  });

  it('error: llama.cpp names the prompt and the window', async () => {
    standIn.setDialect({ server: 'llamacpp', contextTokens: 2_000, overflow: 'error' });
    const { status, body } = await post(standIn.url, request);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      error: { type: 'exceed_context_size_error', n_ctx: 2_000 },
    });
  });
});
