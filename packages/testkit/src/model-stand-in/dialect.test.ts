import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from './index.ts';

/** The dialect modes of issue #36: what each server refuses, and how it answers what it takes. */

const schema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    total: { type: 'number' },
    kind: { type: 'string', enum: ['invoice', 'receipt'] },
  },
  required: ['invoice_number', 'total', 'kind'],
  additionalProperties: false,
};
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function body(extra: Record<string, unknown> = {}, prompt = 'Invoice number: INV-7') {
  return {
    model: 'llama3.1:8b',
    messages: [{ role: 'user', content: prompt }],
    response_format: { type: 'json_schema', json_schema: { name: 'x', strict: true, schema } },
    ...extra,
  };
}

interface Answer {
  choices?: { message: { content: string }; logprobs: { content: unknown[] } | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  error?: { message: string; type: string; code: unknown } | string;
}
const errorMessage = (a: Answer) => (typeof a.error === 'string' ? a.error : a.error?.message);

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}
const content = (a: Answer) => a.choices?.[0]?.message.content ?? '';

describe('stand-in dialects', () => {
  let standIn: ModelStandIn;
  beforeAll(async () => {
    standIn = await startModelStandIn({ models: ['llama3.1:8b'] });
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.setDialect({});
    standIn.reset();
  });

  it('speaks OpenAI by default: json_schema enforced, logprobs sent', async () => {
    const { status, body: answer } = await post(standIn.url, body({ logprobs: true }));
    expect(status).toBe(200);
    expect(JSON.parse(content(answer))).toEqual({
      invoice_number: 'sample text',
      total: 1,
      kind: 'invoice',
    });
    expect(answer.choices?.[0]?.logprobs?.content.length).toBeGreaterThan(0);
  });

  it('json_object_only: refuses json_schema as JSON-mode servers do, takes json_object', async () => {
    standIn.setDialect({ structuredOutput: 'json_object_only', server: 'ollama' });
    const refused = await post(standIn.url, body());
    expect(refused.status).toBe(400);
    expect(errorMessage(refused.body)).toBe(
      "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
    );
    const prompt = `Answer with JSON following this schema:\n\`\`\`json\n${JSON.stringify(schema)}\n\`\`\``;
    const taken = await post(
      standIn.url,
      body({ response_format: { type: 'json_object' } }, prompt),
    );
    expect(taken.status).toBe(200);
    expect(JSON.parse(content(taken.body))).toMatchObject({ invoice_number: 'sample text' });
  });

  it('ignored: answers prose with the JSON in a fence, which without the schema shown drifts', async () => {
    standIn.setDialect({ structuredOutput: 'ignored', server: 'vllm' });
    const { status, body: answer } = await post(standIn.url, body());
    expect(status).toBe(200);
    const text = content(answer);
    expect(text).toMatch(/^Here is .*\n\n```json\n/);
    const fenced = /```json\n(.*)\n```/s.exec(text)?.[1] ?? '';
    expect(JSON.parse(fenced)).toEqual({ invoiceNumber: 'sample text', total: '1' });
  });

  it('unenforced: takes json_schema but follows it only when the prompt shows it', async () => {
    standIn.setDialect({ structuredOutput: 'unenforced' });
    const loose = await post(standIn.url, body());
    expect(JSON.parse(content(loose.body))).toEqual({ invoiceNumber: 'sample text', total: '1' });
    const shown = await post(standIn.url, body({}, `Schema: ${JSON.stringify(schema)}`));
    expect(JSON.parse(content(shown.body))).toEqual({
      invoice_number: 'sample text',
      total: 1,
      kind: 'invoice',
    });
  });

  it('rejectFields: refuses each named field as vLLM/pydantic does', async () => {
    standIn.setDialect({ server: 'vllm', rejectFields: ['logprobs', 'prompt_cache_key'] });
    const refused = await post(standIn.url, body({ logprobs: true, prompt_cache_key: 'k' }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'BadRequestError', code: 400 });
    expect(errorMessage(refused.body)).toBe(
      "[{'type': 'extra_forbidden', 'loc': ('body', 'logprobs'), 'msg': 'Extra inputs are not permitted', 'input': True}, " +
        "{'type': 'extra_forbidden', 'loc': ('body', 'prompt_cache_key'), 'msg': 'Extra inputs are not permitted', 'input': 'k'}]",
    );
    expect((await post(standIn.url, body({ max_tokens: 10 }))).status).toBe(200);
  });

  it('images: false refuses image parts in each server’s words', async () => {
    const withImage = body({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Read this' },
            {
              type: 'image_url',
              image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
            },
          ],
        },
      ],
    });
    standIn.setDialect({ images: false, server: 'vllm' });
    const vllm = await post(standIn.url, withImage);
    expect([vllm.status, errorMessage(vllm.body)]).toEqual([
      400,
      'llama3.1:8b is not a multimodal model None',
    ]);
    standIn.setDialect({ images: false, server: 'llamacpp' });
    const llamacpp = await post(standIn.url, withImage);
    expect(llamacpp.status).toBe(500);
    expect(JSON.stringify(llamacpp.body)).toContain('image input is not supported');
    standIn.setDialect({ images: false, server: 'ollama' });
    expect(JSON.stringify((await post(standIn.url, withImage)).body)).toContain(
      'does not support vision',
    );
    expect((await post(standIn.url, body())).status).toBe(200);
  });

  it('logprobs: false leaves them out silently', async () => {
    standIn.setDialect({ logprobs: false });
    const { status, body: answer } = await post(standIn.url, body({ logprobs: true }));
    expect(status).toBe(200);
    expect(answer.choices?.[0]?.logprobs).toBeNull();
  });

  it('loading: the first N chat requests get llama.cpp’s 503', async () => {
    standIn.setDialect({ server: 'llamacpp', loading: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(standIn.url, body())).status);
    expect(statuses).toEqual([503, 503, 200]);
    standIn.reset();
    const first = await post(standIn.url, body());
    expect(first.body).toEqual({
      error: { code: 503, message: 'Loading model', type: 'unavailable_error' },
    });
  });

  it('vLLM and Ollama refuse a model they do not have, in their words', async () => {
    standIn.setDialect({ server: 'vllm' });
    const vllm = await post(standIn.url, body({ model: 'mistral' }));
    expect([vllm.status, errorMessage(vllm.body)]).toEqual([
      404,
      'The model `mistral` does not exist.',
    ]);
    standIn.setDialect({ server: 'ollama' });
    const ollama = await post(standIn.url, body({ model: 'mistral' }));
    expect(ollama.status).toBe(404);
    expect(JSON.stringify(ollama.body)).toContain(
      'model \\"mistral\\" not found, try pulling it first',
    );
    expect((await post(standIn.url, body())).status).toBe(200);
  });

  it('keeps probes apart and out of the one-shot queue', async () => {
    standIn.behave({ status: 429 });
    const probe = await post(standIn.url, body(), { 'x-xt-probe': '1' });
    expect(probe.status).toBe(200);
    expect(standIn.probes).toHaveLength(1);
    expect(standIn.requests).toHaveLength(0);
    expect((await post(standIn.url, body())).status).toBe(429);
    expect(standIn.requests).toHaveLength(1);
  });
});
