import { describe, expect, it } from 'vitest';
import { ExtractionFailure } from '@xt/contract';
import type { ChatTransport, ExtractResult } from '@xt/model';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { customId, replay } from './replay.ts';

const completion = (prompt: number, completionTokens: number, cached = 0) =>
  ({
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: { role: 'assistant', content: '{}', refusal: null },
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completionTokens,
      total_tokens: prompt + completionTokens,
      prompt_tokens_details: { cached_tokens: cached },
    },
  }) as ChatCompletion;

const answered = { model: 'm', messages: [{ role: 'user', content: 'answered in a round' }] };
const failedLine = { model: 'm', messages: [{ role: 'user', content: 'failed by the provider' }] };
const answers = {
  [customId(answered)]: completion(1000, 100, 256),
  [customId(failedLine)]: { error: { message: 'line failed' } },
};
const standard: ChatTransport = () => Promise.resolve(completion(40, 4));
const result = { output: {} } as unknown as ExtractResult;

describe('replay', () => {
  it('sums apart the usage of the answers the batch interface gave', async () => {
    const outcome = await replay(
      async (transport, signal) => {
        await transport(answered as never, signal);
        // A line the provider failed goes as a standard call: not part of the batch usage.
        await transport(failedLine as never, signal);
        return result;
      },
      answers,
      standard,
      false,
      new AbortController().signal,
    );
    expect(outcome).toEqual({
      kind: 'done',
      result,
      batchUsage: { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 256 },
    });
  });

  it('counts nothing as batch when every call went standard (the window’s fallback)', async () => {
    const outcome = await replay(
      async (transport, signal) => {
        await transport({ model: 'm', messages: [] }, signal);
        return result;
      },
      {},
      standard,
      true,
      new AbortController().signal,
    );
    expect(outcome).toMatchObject({
      kind: 'done',
      batchUsage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    });
  });

  it('keeps a failed line’s standard answer for the next runs, so it is sent once', async () => {
    const continuation = { model: 'm', messages: [{ role: 'user', content: 'asked later' }] };
    let sent = 0;
    const counting: ChatTransport = () => {
      sent += 1;
      return Promise.resolve(completion(40, 4));
    };
    const calls = async (transport: ChatTransport, signal: AbortSignal) => {
      await transport(answered as never, signal);
      await transport(failedLine as never, signal);
      await transport(continuation as never, signal);
      return result;
    };
    const first = await replay(calls, answers, counting, false, new AbortController().signal);
    expect(first).toMatchObject({
      kind: 'needs',
      requests: { [customId(continuation)]: continuation },
    });
    if (first.kind !== 'needs') throw new Error('expected a next round');
    expect(Object.keys(first.answered)).toEqual([customId(failedLine)]);
    expect(sent).toBe(1);

    // The next round answered the continuation; the failed line's answer came with it.
    const later = {
      ...answers,
      ...first.answered,
      [customId(continuation)]: completion(500, 50),
    };
    const second = await replay(calls, later, counting, false, new AbortController().signal);
    expect(sent).toBe(1);
    expect(second).toMatchObject({
      kind: 'done',
      batchUsage: { inputTokens: 1500, outputTokens: 150, cachedInputTokens: 256 },
    });
  });

  it('marks answers an earlier run already took, so metrics count each call once', async () => {
    const replayed = (c: unknown) =>
      Object.getOwnPropertySymbols(c).some((symbol) => symbol.description === 'replayed');
    const got: unknown[] = [];
    await replay(
      async (transport, signal) => {
        got.push(await transport(answered as never, signal));
        got.push(await transport(failedLine as never, signal));
        return result;
      },
      answers,
      standard,
      false,
      new AbortController().signal,
      new Set<string>(),
    );
    // the round's answer was counted by the run that took it first; the failed line's standard
    // call is counted now, by the model layer, as any call
    expect(got.map(replayed)).toEqual([true, false]);
  });

  it('puts the batch part on a failure, so its tokens are priced as they were sent', async () => {
    const failure = new ExtractionFailure('OUTPUT_INVALID', 'bad');
    const error = await replay(
      async (transport, signal) => {
        await transport(answered as never, signal);
        throw failure;
      },
      answers,
      standard,
      false,
      new AbortController().signal,
    ).catch((e: unknown) => e);
    expect(error).toBe(failure);
    expect(failure.batchUsage).toEqual({
      inputTokens: 1000,
      outputTokens: 100,
      cachedInputTokens: 256,
    });
  });
});
