/**
 * Prompt caching (docs/cost.md#prompt-caching): what repeats across an account's extractions
 * comes first in the request and is byte for byte the same, so the provider's prompt cache
 * applies; the source comes last.
 */
import type { PreparedSource, Structure } from '@xt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelStandIn, type ModelStandIn } from '@xt/testkit/model-stand-in';
import { createModelClient } from './client.ts';
import { extract } from './extract.ts';

/** Twenty described fields: with the rules, over the 1,024 tokens a cache needs. */
const structure: Structure = {
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [
      `field_${i}`,
      {
        type: 'string',
        describe: `The value printed beside the label "Field ${i}" on the document, copied as written, including any codes or prefixes it carries.`,
      },
    ]),
  ),
};

const source = (text: string, title?: string): PreparedSource => ({
  parts: [{ kind: 'text', text }],
  ...(title ? { meta: { title } } : {}),
});

let standIn: ModelStandIn;
beforeAll(async () => {
  standIn = await startModelStandIn();
});
afterAll(() => standIn.close());

function run(input: PreparedSource, instruction = 'Dates as ISO 8601.') {
  return extract({
    client: createModelClient({
      apiKey: 'sk-test',
      baseURL: standIn.url,
      modelMap: {},
      timeoutMs: 10_000,
      maxRetries: 0,
    }),
    model: 'gpt-4.1',
    structure,
    source: input,
    instruction,
    citations: true,
  });
}

/**
 * A request as the provider reads it, in order: the model, the response format (the schema),
 * then the messages; `sourceAt` is where the last message, the source, begins.
 */
function promptOf(index: number): { text: string; sourceAt: number } {
  const body = standIn.requests[index]?.body as {
    model: string;
    response_format: unknown;
    messages: unknown[];
  };
  const before = [body.model, body.response_format, ...body.messages.slice(0, -1)]
    .map((part) => JSON.stringify(part))
    .join('\n');
  return { text: `${before}\n${JSON.stringify(body.messages.at(-1))}`, sourceAt: before.length };
}

function sharedStart(a: string, b: string): number {
  let shared = 0;
  while (shared < a.length && a[shared] === b[shared]) shared += 1;
  return shared;
}

describe('the request prefix', () => {
  it('is identical for two extractions with different sources, up to the source', async () => {
    standIn.reset();
    await run(source('Field 1: ALPHA-1\nField 2: first document', 'Page one'));
    await run(source('Field 1: BETA-2\nA second, different document.', 'Another page'));
    const [first, second] = [promptOf(0), promptOf(1)];
    // Everything before the source message is shared, byte for byte; the source comes last.
    expect(first.sourceAt).toBeGreaterThan(4 * 1024);
    expect(sharedStart(first.text, second.text)).toBeGreaterThan(first.sourceAt);
    expect(first.text.indexOf('Field 1: ALPHA-1')).toBeGreaterThan(first.sourceAt);
    expect(first.text.indexOf('Page one')).toBeGreaterThan(first.sourceAt);
  });

  it('is reported cached by the stand-in on a repeated run', async () => {
    standIn.reset();
    const firstRun = await run(source('Field 1: ALPHA-1'));
    const secondRun = await run(source('Field 1: GAMMA-3, another source entirely'));
    expect(firstRun.usage.cachedInputTokens).toBe(0);
    expect(secondRun.usage.cachedInputTokens).toBeGreaterThanOrEqual(1024);
    expect(secondRun.usage.cachedInputTokens).toBeLessThan(secondRun.usage.inputTokens);
  });

  it('changes with the instruction, which comes before the source', async () => {
    standIn.reset();
    await run(source('Field 1: A'), 'Dates as ISO 8601.');
    await run(source('Field 1: A'), 'Amounts in cents.');
    const [first, second] = [promptOf(0), promptOf(1)];
    expect(sharedStart(first.text, second.text)).toBeLessThan(first.sourceAt);
  });
});
