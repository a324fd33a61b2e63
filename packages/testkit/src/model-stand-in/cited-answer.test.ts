/**
 * The stand-in as a model asked for grounded output: quotes copied from the source, invented
 * values, log-probabilities on request (or withheld), an output limit, and continuations.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from './index.ts';

const scalar = { type: ['string', 'null'] };
const cited = {
  type: 'object',
  properties: {
    output: {
      type: 'object',
      properties: { number: { type: 'string' }, total: { type: 'number' } },
      required: ['number', 'total'],
      additionalProperties: false,
    },
    quotes: {
      type: 'object',
      properties: { number: scalar, total: scalar },
      required: ['number', 'total'],
      additionalProperties: false,
    },
  },
  required: ['output', 'quotes'],
  additionalProperties: false,
};

const body = (schema: unknown, extra: Record<string, unknown> = {}, last?: string) => ({
  model: 'gpt-4.1',
  messages: [
    { role: 'system', content: 'Extract.' },
    { role: 'user', content: '<source>\nInvoice INV-7\nTotal due: 1,234.50 EUR\n</source>' },
    ...(last ? [{ role: 'user', content: last }] : []),
  ],
  response_format: {
    type: 'json_schema',
    json_schema: { name: 'extraction', strict: true, schema },
  },
  ...extra,
});

interface Answer {
  choices: {
    finish_reason: string;
    message: { content: string };
    logprobs: { content: { token: string; logprob: number }[] } | null;
  }[];
}

let standIn: ModelStandIn;
beforeAll(async () => {
  standIn = await startModelStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.reset();
  standIn.setDefaultBehaviour({ output: { number: 'INV-7', total: 1234.5 } });
});

async function ask(request: unknown): Promise<Answer['choices'][number]> {
  const res = await fetch(`${standIn.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const answer = (await res.json()) as Answer;
  const choice = answer.choices[0];
  if (!choice) throw new Error('no choice');
  return choice;
}

describe('the stand-in asked for quotes', () => {
  it('wraps the output with the source lines its values are written on', async () => {
    const choice = await ask(body(cited));
    expect(JSON.parse(choice.message.content)).toEqual({
      output: { number: 'INV-7', total: 1234.5 },
      quotes: { number: 'Invoice INV-7', total: 'Total due: 1,234.50 EUR' },
    });
  });

  it('invents a value with the quote it claims', async () => {
    standIn.setDefaultBehaviour({
      output: { number: 'INV-7', total: 1234.5 },
      invent: [{ pointer: '/total', value: 99, quote: 'Total: 99' }],
    });
    const choice = await ask(body(cited));
    expect(JSON.parse(choice.message.content)).toMatchObject({
      output: { total: 99 },
      quotes: { total: 'Total: 99' },
    });
  });

  it('sends log-probabilities that spell the answer only when asked, and not when told not to', async () => {
    const asked = await ask(body(cited, { logprobs: true }));
    const tokens = asked.logprobs?.content ?? [];
    expect(tokens.map((t) => t.token).join('')).toBe(asked.message.content);
    expect(tokens.every((t) => t.logprob === -0.01)).toBe(true);
    expect((await ask(body(cited))).logprobs).toBeNull();
    standIn.setDefaultBehaviour({ output: { number: 'INV-7', total: 1234.5 }, logprobs: false });
    expect((await ask(body(cited, { logprobs: true }))).logprobs).toBeNull();
  });

  it('cuts an answer longer than its output limit, with finish_reason length', async () => {
    standIn.setDefaultBehaviour({ output: { number: 'INV-7', total: 1234.5 }, outputLimit: 5 });
    const choice = await ask(body(cited));
    expect(choice.finish_reason).toBe('length');
    expect(choice.message.content).toHaveLength(20);
  });

  it('answers a continuation with the items after those received, earlier fields null', async () => {
    const list = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        rows: { type: 'array', items: { type: 'string' } },
        note: { type: 'string' },
      },
      required: ['title', 'rows', 'note'],
      additionalProperties: false,
    };
    standIn.setDefaultBehaviour({ output: { title: 'T', rows: ['a', 'b', 'c', 'd'], note: 'n' } });
    const choice = await ask(
      body(
        list,
        {},
        'Your previous answer reached the output limit inside the list at "/rows" after 2 items; those items are kept.',
      ),
    );
    expect(JSON.parse(choice.message.content)).toEqual({
      title: null,
      rows: ['c', 'd'],
      note: 'n',
    });
  });
});
