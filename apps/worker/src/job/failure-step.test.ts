import { describe, expect, it, vi } from 'vitest';
import { ExtractionFailure } from '@xt/contract';
import {
  asFailure,
  attemptsLeft,
  exhaustedFailure,
  failureStep,
  planFailure,
} from './failure-step.ts';
import type { Spend } from './cost.ts';

describe('asFailure', () => {
  it('keeps an ExtractionFailure and makes anything else a retryable INTERNAL one', () => {
    const known = new ExtractionFailure('SOURCE_UNREADABLE', 'broken');
    expect(asFailure(known)).toBe(known);
    const wrapped = asFailure(new TypeError('boom'));
    expect(wrapped).toMatchObject({ code: 'INTERNAL', retryable: true });
    expect(wrapped.cause).toBeInstanceOf(TypeError);
  });
});

describe('attemptsLeft', () => {
  it('is the fewer of the job attempts and the row attempts left', () => {
    expect(attemptsLeft({ jobAttempts: 3, attemptsMade: 0, maxAttempts: 3, rowAttempts: 1 })).toBe(
      2,
    );
    // The row was claimed more often than this job ran (a stall, a reconciled job).
    expect(attemptsLeft({ jobAttempts: 3, attemptsMade: 0, maxAttempts: 3, rowAttempts: 3 })).toBe(
      0,
    );
    expect(attemptsLeft({ jobAttempts: 3, attemptsMade: 2, maxAttempts: 9, rowAttempts: 1 })).toBe(
      0,
    );
  });

  it("counts a page window's own attempts only", () => {
    expect(attemptsLeft({ jobAttempts: 3, attemptsMade: 0 })).toBe(2);
    expect(attemptsLeft({ jobAttempts: 3, attemptsMade: 2 })).toBe(0);
  });
});

describe('planFailure', () => {
  const retryable = new ExtractionFailure('MODEL_UNAVAILABLE', 'down', { retryable: true });
  const final = new ExtractionFailure('OUTPUT_INVALID', 'bad');
  it('retries a retryable failure while attempts are left, and fails the rest', () => {
    expect(planFailure(retryable, 1)).toBe('retry');
    expect(planFailure(retryable, 0)).toBe('fail');
    expect(planFailure(final, 5)).toBe('fail');
  });
});

describe('failureStep', () => {
  it('records a retry as pending and a final failure as failed, with the tokens spent', async () => {
    const recordFailure = vi.fn(() => Promise.resolve(true));
    const failure = new ExtractionFailure('TIMEOUT', 'slow', { retryable: true, tokens: 42 });
    failure.usage = { inputTokens: 40, outputTokens: 2, cachedInputTokens: 0 };
    failure.batchUsage = { inputTokens: 30, outputTokens: 1, cachedInputTokens: 0 };
    const price = vi.fn((spend: Spend) => ({
      tokens: spend.tokens,
      usage: spend.usage,
      costUsd: 0.25,
    }));
    expect(await failureStep({ recordFailure }, 'id-1', failure, 'retry', price)).toEqual({
      written: true,
    });
    expect(recordFailure).toHaveBeenLastCalledWith(
      'id-1',
      { code: 'TIMEOUT', message: 'slow', tokens: 42, usage: failure.usage, costUsd: 0.25 },
      'pending',
    );
    // The batch part goes to the pricing, which prices it at the batch rate (cost.ts).
    expect(price).toHaveBeenCalledWith({
      tokens: 42,
      usage: failure.usage,
      batchUsage: failure.batchUsage,
    });
    await failureStep({ recordFailure }, 'id-1', failure, 'fail');
    expect(recordFailure).toHaveBeenLastCalledWith('id-1', expect.anything(), 'failed');
  });

  it('says when the row had left processing meanwhile', async () => {
    const recordFailure = () => Promise.resolve(false);
    expect(await failureStep({ recordFailure }, 'id', exhaustedFailure(4), 'fail')).toEqual({
      written: false,
    });
  });
});

describe('exhaustedFailure', () => {
  it('is a final TIMEOUT that counts the starts before this claim', () => {
    const failure = exhaustedFailure(4);
    expect(failure).toMatchObject({ code: 'TIMEOUT', retryable: false, tokens: 0 });
    expect(failure.message).toContain('started 3 times');
  });
});
