import type { PreparedSource, Structure } from '@xt/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { failureOf } from '@xt/testkit';
import { createModelClient } from '../client.ts';
import { extract } from '../extract.ts';
import { LEAST_CAPABILITIES, OPENAI_CAPABILITIES, type Capabilities } from './capabilities.ts';

/*
 * What a model call learns about a server that speaks less than it was thought to: a prompt it
 * kept only part of (redone in pieces of the window it really keeps) and a feature it refused
 * (sent again without it). The stand-in's own dialect modes exercise the same end to end.
 */

const notes: Structure = {
  type: 'object',
  properties: { facts: { type: 'array', items: { type: 'string' } } },
};

/** About 6,000 estimated tokens of prose. */
const long: PreparedSource = {
  parts: [
    {
      kind: 'text',
      text: Array.from(
        { length: 400 },
        (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog again.`,
      ).join('\n'),
    },
  ],
};

let standIn: ModelStandIn;
beforeAll(async () => {
  standIn = await startModelStandIn();
});
afterAll(() => standIn.close());
beforeEach(() => standIn.reset());

const client = () =>
  createModelClient({
    apiKey: 'none',
    baseURL: standIn.url,
    modelMap: {},
    timeoutMs: 10_000,
    maxRetries: 0,
  });

/** A server that keeps 2,048 tokens of any longer prompt and says so only in its count. */
function keepsAtMost(tokens: number) {
  standIn.setDefaultBehaviour({
    pick: (request) => {
      const sent = Math.ceil(request.text.length / 4);
      return sent > tokens
        ? { output: { facts: [] }, usage: { prompt_tokens: tokens } }
        : { output: { facts: ['kept'] } };
    },
  });
}

describe('a prompt the server cut', () => {
  it('is redone in pieces of the window the server really keeps, and the window is learned', async () => {
    keepsAtMost(2_048);
    const learned: Capabilities[] = [];
    const caps: Capabilities = { ...LEAST_CAPABILITIES, structuredOutput: 'json_schema' };
    const result = await extract({
      client: client(),
      model: 'local',
      structure: notes,
      source: long,
      capabilities: caps,
      onCapabilitiesLearned: (c) => learned.push(c),
    });
    expect(learned.map((c) => c.contextTokens)).toEqual([2_048]);
    // the first, cut call, then every piece within the window
    const [first, ...pieces] = standIn.requests;
    expect(Math.ceil(first!.text.length / 4)).toBeGreaterThan(2_048);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(Math.ceil(piece.text.length / 4)).toBeLessThan(2_048);
    expect(result.output).toMatchObject({ facts: expect.arrayContaining(['kept']) });
    // the cut call's tokens were spent, and are counted
    expect(result.calls).toBe(standIn.requests.length);
  });

  it('fails saying so when even the smallest piece is cut', async () => {
    keepsAtMost(300);
    const failure = await failureOf(
      extract({
        client: client(),
        model: 'local',
        structure: notes,
        source: long,
        capabilities: { ...LEAST_CAPABILITIES, structuredOutput: 'json_schema' },
      }),
    );
    expect(failure).toMatchObject({ code: 'MODEL_CONTEXT_TOO_SMALL', retryable: false });
    expect(String((failure as Error).message)).toMatch(
      /kept only 300 of about \d+ prompt tokens|context window/,
    );
  });

  it('is not looked for at OpenAI, which refuses a prompt too long instead of cutting it', async () => {
    keepsAtMost(2_048);
    const result = await extract({
      client: client(),
      model: 'gpt-4.1',
      structure: notes,
      source: long,
      capabilities: OPENAI_CAPABILITIES,
    });
    expect(standIn.requests).toHaveLength(1);
    expect(result.output).toEqual({ facts: [] });
  });
});

describe('a feature the server refused', () => {
  it('is dropped, the call sent once more, and every later call told', async () => {
    standIn.behave({
      status: 400,
      body: {
        error: {
          message: 'Unrecognized request argument supplied: logprobs',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    });
    standIn.setDefaultBehaviour({ output: { facts: ['a'] } });
    const learned: Capabilities[] = [];
    const result = await extract({
      client: client(),
      model: 'local',
      structure: notes,
      source: { parts: [{ kind: 'text', text: 'a' }] },
      citations: true,
      capabilities: { ...OPENAI_CAPABILITIES, cutsLongPrompts: true },
      onCapabilitiesLearned: (c) => learned.push(c),
    });
    const [refused, again] = standIn.requests;
    expect((refused!.body as { logprobs?: boolean }).logprobs).toBe(true);
    expect(again!.body).not.toHaveProperty('logprobs');
    expect(learned).toEqual([expect.objectContaining({ logprobs: false })]);
    expect(result.output).toEqual({ facts: ['a'] });
  });

  it('fails as before when the refusal names nothing the service can drop', async () => {
    standIn.behave({
      status: 400,
      body: { error: { message: 'Bad things', type: 'invalid_request_error' } },
    });
    const failure = await failureOf(
      extract({
        client: client(),
        model: 'local',
        structure: notes,
        source: { parts: [{ kind: 'text', text: 'a' }] },
        capabilities: OPENAI_CAPABILITIES,
      }),
    );
    expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    expect(standIn.requests).toHaveLength(1);
  });
});
