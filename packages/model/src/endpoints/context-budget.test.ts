import { describe, expect, it } from 'vitest';
import { LEAST_CAPABILITIES, OPENAI_CAPABILITIES } from './capabilities.ts';
import { CONTEXT_MARGIN, contextBudget } from './context-budget.ts';

describe('contextBudget', () => {
  it('keeps the configured budget when the window is unknown or larger', () => {
    expect(
      contextBudget({
        configured: 120_000,
        capabilities: OPENAI_CAPABILITIES,
        maxOutputTokens: undefined,
        fixedTokens: 1_000,
      }),
    ).toMatchObject({ sourceTokens: 119_000, answerTokens: undefined, fromContext: false });
    expect(
      contextBudget({
        configured: 120_000,
        capabilities: { ...OPENAI_CAPABILITIES, contextTokens: 1_000_000 },
        maxOutputTokens: undefined,
        fixedTokens: 1_000,
      }),
    ).toMatchObject({ sourceTokens: 119_000, fromContext: false });
  });

  it('fits prompt and answer into a small window with the margin kept free', () => {
    const fit = contextBudget({
      configured: 120_000,
      capabilities: { ...LEAST_CAPABILITIES, contextTokens: 4_096 },
      maxOutputTokens: undefined,
      fixedTokens: 700,
    });
    expect(fit.fromContext).toBe(true);
    expect(fit.answerTokens).toBe(1_024);
    // prompt + answer + margin never pass the window
    expect(fit.sourceTokens + fit.fixedTokens + fit.answerTokens!).toBeLessThanOrEqual(
      4_096 - Math.floor((4_096 - 1_024) * CONTEXT_MARGIN),
    );
    expect(fit.sourceTokens).toBe(Math.floor(3_072 * (1 - CONTEXT_MARGIN)) - 700);
  });

  it('caps the answer by what the server or the operator allows', () => {
    const fit = contextBudget({
      configured: 120_000,
      capabilities: { ...LEAST_CAPABILITIES, contextTokens: 32_768, outputTokens: 2_048 },
      maxOutputTokens: 4_000,
      fixedTokens: 500,
    });
    expect(fit.answerTokens).toBe(2_048);
  });
});
