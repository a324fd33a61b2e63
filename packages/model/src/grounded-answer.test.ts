/**
 * The model call with citations (quotes beside the output, token log-probabilities) and the
 * continuation of answers the output limit cut off, against the model stand-in.
 */
import type { PreparedSource, Structure } from '@xt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { createModelClient, type ModelClientOptions } from './client.ts';
import { extract } from './extract.ts';

const invoice: Structure = {
  type: 'object',
  properties: {
    number: { type: 'string', required: true },
    total: { type: 'number' },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { sku: { type: 'string', required: true } } },
    },
  },
};
const invoiceText = 'Invoice INV-7\nLine SKU-A\nLine SKU-B\nTotal due: 1,234.50 EUR';
const invoiceAnswer = {
  number: 'INV-7',
  total: 1234.5,
  lines: [{ sku: 'SKU-A' }, { sku: 'SKU-B' }],
};

const table: Structure = {
  type: 'object',
  properties: {
    title: { type: 'string', required: true },
    rows: {
      type: 'array',
      required: true,
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', required: true },
          amount: { type: 'number', required: true },
        },
      },
    },
    note: { type: 'string' },
  },
};
const rowsOf = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: `R${String(i + 1).padStart(4, '0')}`,
    amount: i + 1,
  }));
const tableText = (count: number) =>
  [
    'Statement of rows',
    ...rowsOf(count).map((r) => `${r.id} ${r.amount}`),
    'Note: end of rows',
  ].join('\n');

const text = (content: string): PreparedSource => ({ parts: [{ kind: 'text', text: content }] });

let standIn: ModelStandIn;
beforeAll(async () => {
  standIn = await startModelStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.reset();
  standIn.setDefaultBehaviour({});
});

function client(overrides: Partial<ModelClientOptions> = {}) {
  return createModelClient({
    apiKey: 'sk-test-abcdefghijklmnop',
    baseURL: standIn.url,
    modelMap: {},
    timeoutMs: 10_000,
    maxRetries: 0,
    ...overrides,
  });
}

/** Every object of a strict schema lists all its properties as required, none extra. */
function strictEverywhere(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(strictEverywhere);
  if (typeof schema !== 'object' || schema === null) return true;
  const node = schema as Record<string, unknown>;
  if (node.type === 'object') {
    const keys = Object.keys(node.properties as object).sort();
    const required = [...(node.required as string[])].sort();
    if (JSON.stringify(keys) !== JSON.stringify(required)) return false;
    if (node.additionalProperties !== false) return false;
  }
  return Object.values(node).every(strictEverywhere);
}

describe('an answer with citations', () => {
  it('asks for quotes beside the output and log-probabilities, and keys both into the output', async () => {
    standIn.setDefaultBehaviour({ output: invoiceAnswer, tokenLogprob: -0.02 });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: text(invoiceText),
      citations: true,
    });
    expect(result.output).toEqual(invoiceAnswer);
    const request = standIn.requests[0];
    expect((request?.body as { logprobs?: unknown }).logprobs).toBe(true);
    const schema = request?.schema as { properties: Record<string, unknown>; required: string[] };
    expect(schema.required).toEqual(['output', 'quotes']);
    expect(strictEverywhere(schema)).toBe(true);
    expect(request?.text).toContain('"quotes"');

    expect(Object.fromEntries(result.annotations.quotes)).toEqual({
      '/number': 'Invoice INV-7',
      '/total': 'Total due: 1,234.50 EUR',
      '/lines/0/sku': 'Line SKU-A',
      '/lines/1/sku': 'Line SKU-B',
    });
    const probabilities = result.annotations.probabilities;
    expect([...(probabilities?.keys() ?? [])].sort()).toEqual(
      ['/lines/0/sku', '/lines/1/sku', '/number', '/total'].sort(),
    );
    for (const p of probabilities?.values() ?? []) {
      expect(p).toBeGreaterThan(0.5);
      expect(p).toBeLessThan(1);
    }
  });

  it('has no probabilities when the provider sends no log-probabilities', async () => {
    standIn.setDefaultBehaviour({ output: invoiceAnswer, logprobs: false });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: text(invoiceText),
      citations: true,
    });
    expect(result.annotations.probabilities).toBeUndefined();
    expect(result.annotations.quotes.get('/number')).toBe('Invoice INV-7');
  });

  it('sends nothing new without citations', async () => {
    standIn.setDefaultBehaviour({ output: invoiceAnswer });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: text(invoiceText),
    });
    const request = standIn.requests[0];
    expect(request?.body).not.toHaveProperty('logprobs');
    expect(request?.schema).not.toHaveProperty('properties.quotes');
    expect(request?.text).not.toContain('quotes');
    expect(result.annotations.quotes.size).toBe(0);
  });

  it('keeps quotes and probabilities with their values when chunks are merged', async () => {
    const filler = 'Lorem ipsum dolor sit amet. '.repeat(150);
    const source: PreparedSource = {
      parts: [1, 2, 3].map((page) => ({
        kind: 'text',
        text: `${page === 1 ? 'Invoice INV-7\n' : ''}Line SKU-P${page}\nLine SKU-SHARED\n${filler}`,
        unit: page,
      })),
    };
    standIn.setDefaultBehaviour({
      respond: (request) => {
        const part = request.messages.at(-1)?.text ?? '';
        const skus = [...new Set([...part.matchAll(/SKU-\w+/g)].map((m) => m[0]))];
        return {
          number: /Invoice (INV-\d+)/.exec(part)?.[1] ?? null,
          total: null,
          lines: skus.map((sku) => ({ sku })),
        };
      },
    });
    const result = await extract({
      client: client({ maxInputTokens: 2_500 }),
      model: 'gpt-4.1',
      structure: invoice,
      source,
      citations: true,
    });
    expect(result.calls).toBe(3);
    const lines = (result.output as { lines: { sku: string }[] }).lines;
    expect(lines.map((l) => l.sku)).toEqual(['SKU-P1', 'SKU-SHARED', 'SKU-P2', 'SKU-P3']);
    lines.forEach((line, i) => {
      expect(result.annotations.quotes.get(`/lines/${i}/sku`)).toBe(`Line ${line.sku}`);
      expect(result.annotations.probabilities?.has(`/lines/${i}/sku`)).toBe(true);
    });
    expect(result.annotations.quotes.get('/number')).toBe('Invoice INV-7');
  });
});

describe('an answer cut off by the output limit', () => {
  const allRows = (result: { output: unknown }) =>
    (result.output as { rows: { id: string }[] }).rows.map((r) => r.id);

  it('is continued after the last item received until complete: every row, in order, once', async () => {
    const rows = rowsOf(300);
    standIn.setDefaultBehaviour({
      output: { title: 'Statement of rows', rows, note: 'end of rows' },
      outputLimit: 1_000,
    });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: table,
      source: text(tableText(300)),
    });
    expect(standIn.requests.length).toBeGreaterThan(2);
    expect(allRows(result)).toEqual(rows.map((r) => r.id));
    expect(result.output).toMatchObject({ title: 'Statement of rows', note: 'end of rows' });
    expect(result.truncated).toEqual([]);
    expect(result.calls).toBe(standIn.requests.length);
    const second = standIn.requests[1]?.messages.at(-1)?.text ?? '';
    expect(second).toMatch(/the list at "\/rows" after \d+ items/);
    expect(second).not.toContain('keep text values short');
  });

  it('keeps quotes and probabilities aligned with the rows of every continuation', async () => {
    const rows = rowsOf(120);
    standIn.setDefaultBehaviour({
      output: { title: 'Statement of rows', rows, note: 'end of rows' },
      outputLimit: 700,
    });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: table,
      source: text(tableText(120)),
      citations: true,
    });
    expect(standIn.requests.length).toBeGreaterThanOrEqual(2);
    expect(allRows(result)).toEqual(rows.map((r) => r.id));
    // Quotes come after the output in each answer: the rows of a cut answer have none, those of
    // the answer that completed have theirs, each at its row's own index.
    const quoted = [...result.annotations.quotes].filter(([p]) => p.endsWith('/id'));
    expect(quoted.length).toBeGreaterThan(0);
    for (const [pointer, quote] of quoted) {
      const index = Number(pointer.split('/')[2]);
      expect(quote).toBe(`${rows[index]?.id} ${rows[index]?.amount}`);
    }
    for (let i = 0; i < rows.length; i++)
      expect(result.annotations.probabilities?.has(`/rows/${i}/id`)).toBe(true);
  });

  it('stops at the continuation bound and names the list it left unfinished', async () => {
    const rows = rowsOf(300);
    standIn.setDefaultBehaviour({
      output: { title: 'Statement of rows', rows, note: 'end of rows' },
      outputLimit: 1_000,
    });
    const result = await extract({
      client: client({ maxContinuations: 1 }),
      model: 'gpt-4.1',
      structure: table,
      source: text(tableText(300)),
    });
    expect(standIn.requests).toHaveLength(2);
    expect(result.truncated).toEqual(['/rows']);
    const got = allRows(result);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(300);
    expect(got).toEqual(rows.slice(0, got.length).map((r) => r.id));
  });

  it('asks again in full when there is no list to continue', async () => {
    standIn.behave({ finishReason: 'length', content: '{"number": "INV' });
    standIn.setDefaultBehaviour({ output: invoiceAnswer });
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: invoice,
      source: text(invoiceText),
    });
    expect(result.output).toEqual(invoiceAnswer);
    expect(standIn.requests[1]?.messages.at(-1)?.text).toContain('cut off by the output limit');
  });
});
