import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { startModelStandIn, type ModelStandIn } from './index.ts';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Customer name' },
    currency: { type: ['string', 'null'], description: 'ISO code. Length: exactly 3 characters.' },
    kind: { type: ['string', 'null'], enum: ['invoice', 'receipt', null] },
    count: { type: 'integer' },
    paid: { type: 'boolean' },
    lines: {
      anyOf: [
        {
          type: 'array',
          items: {
            type: 'object',
            properties: { amount: { type: 'number' } },
            required: ['amount'],
            additionalProperties: false,
          },
        },
        { type: 'null' },
      ],
    },
  },
  required: ['name', 'currency', 'kind', 'count', 'paid', 'lines'],
  additionalProperties: false,
};

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function chatBody(extra: Record<string, unknown> = {}) {
  return {
    model: 'gpt-4.1-2025-04-14',
    messages: [
      { role: 'system', content: 'You extract data.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Invoice 42' },
          {
            type: 'image_url',
            image_url: { url: `data:image/png;base64,${png.toString('base64')}`, detail: 'high' },
          },
        ],
      },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'extraction', strict: true, schema },
    },
    ...extra,
  };
}

/** The fields of a completion or error body the tests read. */
interface ChatAnswer {
  id: string;
  model: string;
  choices: { finish_reason: string; message: { content: string; refusal: string | null } }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  error: { type: string; message: string };
}

function answer(body: ChatAnswer): {
  content: string;
  finishReason: string;
  refusal: string | null;
} {
  const choice = body.choices[0];
  if (!choice) throw new Error('no choice in the answer');
  return {
    content: choice.message.content,
    finishReason: choice.finish_reason,
    refusal: choice.message.refusal,
  };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as ChatAnswer };
}

describe('model stand-in', () => {
  let standIn: ModelStandIn;
  beforeAll(async () => {
    standIn = await startModelStandIn();
  });
  afterAll(() => standIn.close());
  beforeEach(() => standIn.reset());

  it('answers with a value valid for the json_schema and realistic usage', async () => {
    const { status, body } = await post(standIn.url, chatBody());
    expect(status).toBe(200);
    expect(body.model).toBe('gpt-4.1-2025-04-14');
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(answer(body).finishReason).toBe('stop');
    expect(JSON.parse(answer(body).content)).toEqual({
      name: 'sample text',
      currency: 'sam',
      kind: 'invoice',
      count: 1,
      paid: true,
      lines: [{ amount: 1 }],
    });
    expect(body.usage.prompt_tokens).toBeGreaterThan(100);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('records what reached the model', async () => {
    await post(standIn.url, chatBody());
    const [recorded] = standIn.requests;
    expect(recorded?.model).toBe('gpt-4.1-2025-04-14');
    expect(recorded?.schema).toEqual(schema);
    expect(recorded?.text).toBe('You extract data.\n\nInvoice 42');
    expect(recorded?.images).toEqual([
      { mime: 'image/png', bytes: png.length, detail: 'high', inline: true },
    ]);
    expect(recorded?.headers.authorization).toBe('Bearer test-key');
  });

  it('records image sizes and bills images by OpenAI tiles', async () => {
    const image = await sharp({
      create: { width: 1024, height: 1024, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .png()
      .toBuffer();
    const body = (detail: string) => ({
      model: 'gpt-4.1',
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'image_url',
              image_url: { url: `data:image/png;base64,${image.toString('base64')}`, detail },
            },
          ],
        },
      ],
    });
    const high = await post(standIn.url, body('high'));
    const low = await post(standIn.url, body('low'));
    expect(standIn.requests[0]?.images[0]).toMatchObject({
      width: 1024,
      height: 1024,
      bytes: image.length,
    });
    expect(high.body.usage.prompt_tokens - low.body.usage.prompt_tokens).toBe(765 - 85);
  });

  it('plays queued one-shot behaviours in order, then the default', async () => {
    standIn.behave([
      { status: 429 },
      { refuse: 'I cannot help with that.' },
      { content: 'not json' },
      { output: { name: 'Ada' }, usage: { prompt_tokens: 10, completion_tokens: 5 } },
      { respond: (req) => ({ echoed: req.text.length }) },
      { finishReason: 'length', content: '{"name":' },
    ]);
    const limited = await post(standIn.url, chatBody());
    expect(limited.status).toBe(429);
    expect(limited.body.error.type).toBe('rate_limit_exceeded');
    const refused = await post(standIn.url, chatBody());
    expect(answer(refused.body)).toMatchObject({
      content: null,
      refusal: 'I cannot help with that.',
    });
    expect(answer((await post(standIn.url, chatBody())).body).content).toBe('not json');
    const output = await post(standIn.url, chatBody());
    expect(answer(output.body).content).toBe('{"name":"Ada"}');
    expect(output.body.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
    });
    const echoed = await post(standIn.url, chatBody());
    expect(JSON.parse(answer(echoed.body).content)).toEqual({
      echoed: 'You extract data.\n\nInvoice 42'.length,
    });
    const cut = await post(standIn.url, chatBody());
    expect(answer(cut.body).finishReason).toBe('length');
    const normal = await post(standIn.url, chatBody());
    expect((JSON.parse(answer(normal.body).content) as { name: string }).name).toBe('sample text');
    expect(standIn.requests).toHaveLength(7);
  });

  it('answers a custom error body and status', async () => {
    standIn.behave({
      status: 400,
      body: { error: { message: 'Invalid schema', type: 'invalid_request_error' } },
    });
    const res = await post(standIn.url, chatBody());
    expect(res).toEqual({
      status: 400,
      body: { error: { message: 'Invalid schema', type: 'invalid_request_error' } },
    });
  });

  it('hangs until the client gives up, and close() still returns', async () => {
    const hanging = await startModelStandIn({ defaultBehaviour: { hang: true } });
    const aborted = fetch(`${hanging.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chatBody()),
      signal: AbortSignal.timeout(200),
    });
    await expect(aborted).rejects.toThrow();
    const stillOpen = fetch(`${hanging.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chatBody()),
    });
    await vi.waitFor(() => expect(hanging.requests).toHaveLength(2));
    await hanging.close();
    await expect(stillOpen).rejects.toThrow();
  });

  it('lists models and checks the key when one is configured', async () => {
    const guarded = await startModelStandIn({ apiKey: 'right' });
    try {
      const models = (await (
        await fetch(`${guarded.url}/models`, { headers: { authorization: 'Bearer right' } })
      ).json()) as {
        data: { id: string }[];
      };
      expect(models.data.map((m) => m.id)).toEqual(['gpt-4.1', 'gpt-4.1-mini']);
      const denied = await post(guarded.url, chatBody(), { authorization: 'Bearer wrong' });
      expect(denied.status).toBe(401);
      expect(guarded.requests).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });
});
