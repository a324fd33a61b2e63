import type { PreparedSource, Structure } from '@xt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// the stand-in lives in testkit; imported by path until testkit's index re-exports it
import {
  sampleValue,
  startModelStandIn,
  type ModelStandIn,
  type RecordedRequest,
} from '@xt/testkit/model-stand-in';
import { failureOf } from '@xt/testkit';
import { createModelClient, type ModelCallRecord, type ModelClientOptions } from './client.ts';
import { extract, SourceDoesNotFit } from './extract.ts';
import { markReplayed } from './model-call.ts';

const invoice: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true, describe: 'Invoice number' },
    currency: { type: 'string', minLength: '3', maxLength: '3' },
    lines: {
      type: 'array',
      required: true,
      items: { type: 'object', properties: { sku: { type: 'string', required: true } } },
    },
  },
};

const textSource: PreparedSource = { parts: [{ kind: 'text', text: 'Invoice INV-7, 2 x SKU-A' }] };
const KEY = 'sk-test-abcdefghijklmnop';

let standIn: ModelStandIn;
/** what the stand-in answers when no one-shot behaviour is queued */
let responder: (request: RecordedRequest) => unknown;

function client(overrides: Partial<ModelClientOptions> = {}) {
  return createModelClient({
    apiKey: KEY,
    baseURL: standIn.url,
    modelMap: { 'gpt-4.1': 'gpt-4.1-2025-04-14' },
    timeoutMs: 10_000,
    maxRetries: 0,
    ...overrides,
  });
}

function usageOf(count: number): number {
  // each answer reports 100 + 20 tokens (set below), so spend is exact
  return count * 120;
}

beforeAll(async () => {
  standIn = await startModelStandIn({
    defaultBehaviour: {
      respond: (request) => responder(request),
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    },
  });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.reset();
  responder = (request) => sampleValue(request.schema);
});

const fixedUsage = { usage: { prompt_tokens: 100, completion_tokens: 20 } };

describe('extract against the stand-in', () => {
  it('sends a strict json_schema request to the mapped model and returns valid output', async () => {
    responder = () => ({ number: 'INV-7', currency: null, lines: [{ sku: 'SKU-A' }] });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
      instruction: 'Only line items with a SKU.',
    });
    expect(result).toEqual({
      output: { number: 'INV-7', currency: null, lines: [{ sku: 'SKU-A' }] },
      annotations: { quotes: new Map(), probabilities: undefined },
      truncated: [],
      totalTokens: 120,
      usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 0 },
      calls: 1,
    });
    const [request] = standIn.requests;
    expect(request?.model).toBe('gpt-4.1-2025-04-14');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = request?.body as { response_format: unknown; temperature: number };
    expect(body.temperature).toBe(0);
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'extraction', strict: true },
    });
    expect(request?.schema).toMatchObject({
      additionalProperties: false,
      required: ['number', 'currency', 'lines'],
    });
    expect(request?.messages.map((m) => m.role)).toEqual(['system', 'system', 'user', 'user']);
    expect(request?.messages[2]?.text).toContain('Only line items with a SKU.');
    expect(request?.messages[3]?.text).toContain('Invoice INV-7, 2 x SKU-A');
  });

  it('sends prompt_cache_key only to OpenAI itself unless told otherwise', async () => {
    const run = (c: ReturnType<typeof client>) =>
      extract({ client: c, model: 'gpt-4.1', structure: invoice, source: textSource });
    await run(client());
    await run(client({ promptCacheKey: true }));
    const [plain, cached] = standIn.requests.map((r) => r.body as Record<string, unknown>);
    expect(plain).not.toHaveProperty('prompt_cache_key');
    expect(cached?.prompt_cache_key).toEqual(expect.any(String));
    expect(
      createModelClient({ apiKey: 'k', modelMap: {}, timeoutMs: 1, maxRetries: 0 }).promptCacheKey,
    ).toBe(true);
  });

  it('reads JSON a compatible server wrapped in a Markdown fence, without a repair call', async () => {
    standIn.behave({
      content: '```json\n{"number": "INV-9", "currency": null, "lines": []}\n```',
      ...fixedUsage,
    });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
    });
    expect(result.output).toEqual({ number: 'INV-9', currency: null, lines: [] });
    expect(result.calls).toBe(1);
  });

  it('leaves temperature out when configured with null', async () => {
    await extract({
      client: client({ temperature: null }),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
    });
    expect(standIn.requests[0]?.body).not.toHaveProperty('temperature');
  });

  it('fills optional fields a non-strict provider left out with null', async () => {
    standIn.behave({ output: { number: 'INV-7', lines: [] }, ...fixedUsage });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
    });
    expect(result.output).toEqual({ number: 'INV-7', currency: null, lines: [] });
  });

  it('sends images as data URLs and unwraps a root array', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
    responder = () => ({ items: ['a', 'b'] });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1-mini',
      structure: { type: 'array', items: { type: 'string' } },
      source: {
        parts: [
          {
            kind: 'image',
            dataUrl: `data:image/png;base64,${png.toString('base64')}`,
            width: 1,
            height: 1,
          },
        ],
      },
    });
    expect(result.output).toEqual(['a', 'b']);
    // unmapped public names go to the provider unchanged
    expect(standIn.requests[0]?.model).toBe('gpt-4.1-mini');
    expect(standIn.requests[0]?.images).toEqual([
      { mime: 'image/png', bytes: png.length, detail: 'high', inline: true },
    ]);
  });

  it('repairs an answer that is not JSON, then one that breaks the structure', async () => {
    standIn.behave([
      { content: 'Sure! Here is the data: {', ...fixedUsage },
      {
        output: { number: 'INV-7', currency: 'EURO', lines: [{ sku: null }], extra: 1 },
        ...fixedUsage,
      },
    ]);
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
    });
    expect(result.calls).toBe(3);
    expect(result.totalTokens).toBe(usageOf(3));
    expect(result.output).toEqual(sampleValue(standIn.requests[2]?.schema));
    const secondAsk = standIn.requests[1]?.messages.at(-1)?.text ?? '';
    expect(secondAsk).toContain('not valid JSON');
    const thirdAsk = standIn.requests[2]?.messages ?? [];
    expect(thirdAsk.at(-2)).toMatchObject({ role: 'assistant' });
    expect(thirdAsk.at(-1)?.text).toContain('$.currency must be at most 3 characters, got 4');
    expect(thirdAsk.at(-1)?.text).toContain('$.lines[0].sku is required and must not be null');
    expect(thirdAsk.at(-1)?.text).toContain('$.extra is not defined in the structure');
  });

  it('fails OUTPUT_INVALID after two repairs, with every token counted', async () => {
    responder = () => ({ number: null, currency: null, lines: [] });
    const failure = await failureOf(
      extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
    );
    expect(failure.code).toBe('OUTPUT_INVALID');
    expect(failure.retryable).toBe(false);
    expect(failure.tokens).toBe(usageOf(3));
    expect(failure.message).toContain('$.number is required');
    expect(standIn.requests).toHaveLength(3);
  });

  it('treats an answer cut off by the length limit as invalid and asks again', async () => {
    standIn.behave({ finishReason: 'length', content: '{"number": "INV', ...fixedUsage });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
    });
    expect(result.calls).toBe(2);
    expect(standIn.requests[1]?.messages.at(-1)?.text).toContain('cut off');
  });

  it("sums the provider's input, output and cached tokens over every call, failed ones too", async () => {
    const cachedUsage = (cached: number) => ({
      usage: {
        prompt_tokens: 100,
        completion_tokens: 20,
        prompt_tokens_details: { cached_tokens: cached },
      },
    });
    standIn.behave([
      { content: 'not json', ...cachedUsage(0) },
      { output: { number: 'INV-7', currency: null, lines: [] }, ...cachedUsage(64) },
    ]);
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
    });
    expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 40, cachedInputTokens: 64 });
    expect(result.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);

    standIn.behave([{ content: 'not json', ...cachedUsage(32) }, { status: 400 }]);
    const failure = await failureOf(
      extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
    );
    expect(failure.usage).toEqual({ inputTokens: 100, outputTokens: 20, cachedInputTokens: 32 });
  });

  it('turns a refusal or a content filter stop into MODEL_REFUSED, keeping the tokens', async () => {
    standIn.behave({ refuse: 'I can not help with that.', ...fixedUsage });
    const refused = await failureOf(
      extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
    );
    expect(refused).toMatchObject({ code: 'MODEL_REFUSED', retryable: false, tokens: 120 });
    expect(refused.message).toContain('I can not help with that.');

    standIn.behave({ finishReason: 'content_filter', content: '', ...fixedUsage });
    const filtered = await failureOf(
      extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
    );
    expect(filtered).toMatchObject({ code: 'MODEL_REFUSED', retryable: false });
  });

  it.each([429, 500, 503])('makes HTTP %i a retryable MODEL_UNAVAILABLE', async (status) => {
    standIn.behave({ status });
    const failure = await failureOf(
      extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
    );
    expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: true, tokens: 0 });
    expect(standIn.requests).toHaveLength(1);
  });

  it("carries the provider's Retry-After on the failure, for the queue's retry", async () => {
    standIn.behave({ status: 429, headers: { 'retry-after': '7' } });
    const limited = await failureOf(
      extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
    );
    expect(limited).toMatchObject({ code: 'MODEL_UNAVAILABLE', retryAfterMs: 7_000 });
    standIn.behave({ status: 503, headers: { 'retry-after-ms': '1500' } });
    const failed = await failureOf(
      extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
    );
    expect(failed.retryAfterMs).toBe(1_500);
  });

  it('runs every call through the configured schedule', async () => {
    let scheduled = 0;
    await extract({
      client: client({
        schedule: (call) => {
          scheduled += 1;
          return call();
        },
      }),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
    });
    expect(scheduled).toBe(standIn.requests.length);
    expect(scheduled).toBeGreaterThan(0);
  });

  it('tells onCall how each call ended, with its model and tokens', async () => {
    const calls: ModelCallRecord[] = [];
    standIn.behave([{ content: 'not json', ...fixedUsage }, { status: 503 }]);
    const failure = await failureOf(
      extract({
        client: client({ onCall: (call) => calls.push(call) }),
        model: 'gpt-4.1',
        structure: invoice,
        source: textSource,
      }),
    );
    expect(failure.code).toBe('MODEL_UNAVAILABLE');
    expect(calls).toEqual([
      { model: 'gpt-4.1-2025-04-14', outcome: 'invalid', promptTokens: 100, completionTokens: 20 },
      { model: 'gpt-4.1-2025-04-14', outcome: 'unavailable', promptTokens: 0, completionTokens: 0 },
    ]);
  });

  it('does not tell onCall of an answer a transport replays, but uses and counts its tokens', async () => {
    const calls: ModelCallRecord[] = [];
    const direct = client({ onCall: (call) => calls.push(call) });
    standIn.behave({ content: JSON.stringify({ number: 'INV-7', lines: [] }), ...fixedUsage });
    const run = (replayed: boolean) =>
      extract({
        client: direct,
        model: 'gpt-4.1',
        structure: invoice,
        source: textSource,
        transport: async (body) => {
          const got = await direct.openai.chat.completions.create(body);
          return replayed ? markReplayed(got) : got;
        },
      });
    const replayed = await run(true);
    expect(replayed.totalTokens).toBe(usageOf(1));
    expect(calls).toEqual([]);
    standIn.behave({ content: JSON.stringify({ number: 'INV-7', lines: [] }), ...fixedUsage });
    await run(false);
    expect(calls).toHaveLength(1);
  });

  it('lets the SDK retry as often as configured', async () => {
    standIn.behave({ status: 503, headers: { 'retry-after-ms': '1' } });
    const result = await extract({
      client: client({ maxRetries: 1 }),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
    });
    expect(result.calls).toBe(1);
    expect(standIn.requests).toHaveLength(2);
  });

  it('makes an exhausted quota non-retryable', async () => {
    standIn.behave({
      status: 429,
      body: {
        error: {
          message: 'You exceeded your current quota.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
    });
    const failure = await failureOf(
      extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
    );
    expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: false });
  });

  it.each([400, 404])(
    'makes HTTP %i a non-retryable MODEL_UNAVAILABLE naming the cause',
    async (status) => {
      standIn.behave({
        status,
        body: {
          error: {
            message: `Invalid schema for key ${KEY} and sk-abc***xyz`,
            type: 'invalid_request_error',
          },
        },
      });
      const failure = await failureOf(
        extract({ client: client(), model: 'gpt-4.1', structure: invoice, source: textSource }),
      );
      expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: false });
      expect(failure.message).toContain(`HTTP ${status}`);
      expect(failure.message).toContain('Invalid schema');
      expect(failure.message).not.toContain(KEY);
      expect(failure.message).not.toContain('sk-abc');
    },
  );

  it('reports a rejected key without quoting it', async () => {
    const guarded = await startModelStandIn({ apiKey: 'the-right-key' });
    try {
      const failure = await failureOf(
        extract({
          client: client({ baseURL: guarded.url }),
          model: 'gpt-4.1',
          structure: invoice,
          source: textSource,
        }),
      );
      expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: false });
      expect(failure.message).toContain('401');
      expect(
        JSON.stringify({ message: failure.message, cause: String(failure.cause) }),
      ).not.toContain(KEY.slice(0, 8));
    } finally {
      await guarded.close();
    }
  });

  it('makes a provider that never answers a retryable MODEL_UNAVAILABLE after the timeout', async () => {
    standIn.behave({ hang: true });
    const failure = await failureOf(
      extract({
        client: client({ timeoutMs: 300 }),
        model: 'gpt-4.1',
        structure: invoice,
        source: textSource,
      }),
    );
    expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: true });
    expect(failure.message).toContain('did not answer in time');
  });

  it('makes an unreachable provider a retryable MODEL_UNAVAILABLE', async () => {
    const gone = await startModelStandIn();
    const url = gone.url;
    await gone.close();
    const failure = await failureOf(
      extract({
        client: client({ baseURL: url }),
        model: 'gpt-4.1',
        structure: invoice,
        source: textSource,
      }),
    );
    expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: true });
    expect(failure.message).toContain('could not be reached');
  });

  it('ends with a retryable TIMEOUT when the caller aborts', async () => {
    standIn.behave({ hang: true });
    const controller = new AbortController();
    const pending = extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: textSource,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('job deadline')), 100);
    expect(await failureOf(pending)).toMatchObject({ code: 'TIMEOUT', retryable: true });
  });
});

describe('extract of a long document', () => {
  const pages = (count: number, perPage: (page: number) => string) =>
    Array.from({ length: count }, (_, i) => ({
      kind: 'text' as const,
      text: perPage(i + 1),
      unit: i + 1,
    }));

  /** answers with the SKUs and the invoice number the request's source text contains */
  function readSource(request: RecordedRequest): unknown {
    const source = request.messages.at(-1)?.text ?? '';
    // like the model (rule 3 of the system prompt) it lists each item once per answer
    const skus = [
      ...new Set([...source.matchAll(/SKU-(\w+)/g)].map((m) => `SKU-${m[1] ?? ''}`)),
    ].map((sku) => ({ sku }));
    const number = /Invoice (INV-\d+)/.exec(source)?.[1] ?? null;
    return { number, currency: null, lines: skus };
  }

  it('splits at pages, extracts the chunks and merges them in document order', async () => {
    responder = readSource;
    const filler = 'Lorem ipsum dolor sit amet. '.repeat(150); // ~1,050 tokens per page
    const source: PreparedSource = {
      parts: pages(
        6,
        (page) =>
          `${page === 1 ? 'Invoice INV-42\n' : ''}Line SKU-P${page}\nLine SKU-SHARED\n${filler}`,
      ),
    };
    const result = await extract({
      client: client({ maxInputTokens: 4_000 }),
      model: 'gpt-4.1',
      structure: invoice,
      source,
    });
    expect(result.calls).toBeGreaterThan(1);
    expect(result.calls).toBe(standIn.requests.length);
    expect(result.totalTokens).toBe(usageOf(result.calls));
    expect(result.output).toEqual({
      number: 'INV-42',
      currency: null,
      lines: [
        { sku: 'SKU-P1' },
        { sku: 'SKU-SHARED' },
        ...[2, 3, 4, 5, 6].map((p) => ({ sku: `SKU-P${p}` })),
      ],
    });
    // every page reached the model exactly once, and no page was cut in two
    for (let page = 1; page <= 6; page += 1) {
      const holders = standIn.requests.filter((r) => r.text.includes(`SKU-P${page}\n`));
      expect(holders).toHaveLength(1);
    }
    // chunks are asked with the relaxed structure: the required invoice number may be null
    expect(standIn.requests[1]?.schema).toMatchObject({
      properties: { number: { type: ['string', 'null'] } },
    });
    expect(standIn.requests[1]?.text).toContain('This is part 2 of');
  });

  it('keeps at most `concurrency` chunk calls in flight', async () => {
    let answered = 0;
    let mostInFlight = 0;
    responder = (request) => {
      mostInFlight = Math.max(mostInFlight, standIn.requests.length - answered);
      answered += 1;
      return readSource(request);
    };
    standIn.behave(
      Array.from({ length: 8 }, () => ({ delayMs: 60, respond: responder, ...fixedUsage })),
    );
    const source: PreparedSource = {
      parts: pages(8, (page) => `Invoice INV-1 SKU-${page} ${'x '.repeat(2400)}`),
    };
    const result = await extract({
      client: client({ maxInputTokens: 2_000, concurrency: 2 }),
      model: 'gpt-4.1',
      structure: invoice,
      source,
    });
    expect(result.calls).toBe(8);
    expect(mostInFlight).toBe(2);
  });

  it('fails OUTPUT_INVALID when no chunk holds a required value', async () => {
    responder = readSource;
    const source: PreparedSource = {
      parts: pages(3, (page) => `SKU-${page} ${'y '.repeat(3000)}`),
    };
    const failure = await failureOf(
      extract({
        client: client({ maxInputTokens: 2_500 }),
        model: 'gpt-4.1',
        structure: invoice,
        source,
      }),
    );
    expect(failure.code).toBe('OUTPUT_INVALID');
    expect(failure.message).toContain('$.number is required');
    expect(failure.tokens).toBe(usageOf(3));
  });

  it('splits one huge text at paragraph boundaries', async () => {
    responder = readSource;
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) => `Paragraph SKU-${i + 1}. ${'z '.repeat(600)}`,
    );
    const result = await extract({
      client: client({ maxInputTokens: 2_500 }),
      model: 'gpt-4.1',
      structure: { ...invoice, properties: { ...invoice.properties, number: { type: 'string' } } },
      source: { parts: [{ kind: 'text', text: paragraphs.join('\n\n') }] },
    });
    expect(result.calls).toBeGreaterThan(1);
    expect((result.output as { lines: unknown[] }).lines).toEqual(
      paragraphs.map((_, i) => ({ sku: `SKU-${i + 1}` })),
    );
  });

  it('fails an indivisible source too large for one call before any call, never cutting it', async () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Page ${i + 1}. ${'z '.repeat(600)}`);
    const failure = await failureOf(
      extract({
        client: client({ maxInputTokens: 2_500 }),
        model: 'gpt-4.1',
        structure: {
          ...invoice,
          properties: { ...invoice.properties, number: { type: 'string' } },
        },
        source: { parts: [{ kind: 'text', text: paragraphs.join('\n\n') }] },
        indivisible: true,
      }),
    );
    expect(failure).toBeInstanceOf(SourceDoesNotFit);
    expect((failure as SourceDoesNotFit).sourceTokens).toBeGreaterThan(0);
    expect(failure.code).toBe('SOURCE_TOO_LARGE');
    expect(standIn.requests).toHaveLength(0);
  });

  it('fails a source past the call or input-token ceiling before any call', async () => {
    const long: PreparedSource = {
      parts: pages(6, (p) => `Invoice INV-${p} SKU-${p} ${'Lorem ipsum dolor. '.repeat(200)}`),
    };
    const structure = {
      ...invoice,
      properties: { ...invoice.properties, number: { type: 'string' } },
    } as Structure;
    const calls = await failureOf(
      extract({
        client: client({ maxInputTokens: 2_500, maxExtractionCalls: 1 }),
        model: 'gpt-4.1',
        structure,
        source: long,
      }),
    );
    expect(calls.code).toBe('SOURCE_TOO_LARGE');
    expect(calls.retryable).toBe(false);
    expect(calls.message).toMatch(/model calls; at most 1 are allowed per extraction/);
    const tokens = await failureOf(
      extract({
        client: client({ maxExtractionInputTokens: 2_000 }),
        model: 'gpt-4.1',
        structure,
        source: long,
      }),
    );
    expect(tokens.code).toBe('SOURCE_TOO_LARGE');
    expect(tokens.message).toMatch(/at most 2000 are allowed per extraction/);
    expect(tokens.tokens).toBe(0);
    expect(standIn.requests).toHaveLength(0);
  });

  it('stops at the call ceiling when repairs would pass it', async () => {
    responder = () => ({ number: null, currency: null, lines: [] });
    const failure = await failureOf(
      extract({
        client: client({ maxExtractionCalls: 2 }),
        model: 'gpt-4.1',
        structure: invoice,
        source: textSource,
      }),
    );
    expect(failure.code).toBe('SOURCE_TOO_LARGE');
    expect(failure.message).toMatch(/more than 2 model calls/);
    expect(failure.tokens).toBe(usageOf(2));
    expect(standIn.requests).toHaveLength(2);
  });

  it('stops starting chunks after a failure and reports the tokens already spent', async () => {
    responder = readSource;
    standIn.behave([{ ...fixedUsage, respond: readSource }, { status: 400 }]);
    const source: PreparedSource = {
      parts: pages(5, (page) => `Invoice INV-1 SKU-${page} ${'w '.repeat(3000)}`),
    };
    const failure = await failureOf(
      extract({
        client: client({ maxInputTokens: 2_500, concurrency: 1 }),
        model: 'gpt-4.1',
        structure: invoice,
        source,
      }),
    );
    expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE', retryable: false, tokens: 120 });
    expect(standIn.requests).toHaveLength(2);
  });
});
