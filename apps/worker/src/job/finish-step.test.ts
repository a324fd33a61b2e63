import { describe, expect, it, vi } from 'vitest';
import type { PreparedSource } from '@xt/contract';
import { finishStep } from './finish-step.ts';

const text = 'Invoice INV-7. Total due: 12.50 EUR';
const source: PreparedSource = {
  parts: [{ kind: 'text', text }],
  grounding: { kind: 'text', content: text },
};
const answer = (output: unknown) => ({
  output,
  truncated: [],
  annotations: { quotes: new Map<string, string>() },
});
const spent = {
  tokens: 120,
  usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 0 },
  costUsd: 0.00036,
};

describe('finishStep', () => {
  it('completes with the output, its tokens, and citations grounded in the source', async () => {
    const complete = vi.fn(() => Promise.resolve(true));
    const previews = vi.fn(() => Promise.resolve({ '1': 'ref' }));
    const result = await finishStep(
      { lifecycle: { complete }, previews },
      'id-1',
      true,
      source,
      answer({ total: 12.5, number: 'INV-9' }),
      spent,
    );
    expect(result).toEqual({ written: true });
    const [id, output, written, grounded] = complete.mock.calls[0] as unknown as [
      string,
      unknown,
      typeof spent,
      {
        citations: Record<string, { grounded: boolean; start: number | null }>;
        pageImages: unknown;
      },
    ];
    expect([id, output, written]).toEqual(['id-1', { total: 12.5, number: 'INV-9' }, spent]);
    expect(grounded.citations['/total']).toMatchObject({
      grounded: true,
      start: text.indexOf('12.50'),
    });
    expect(grounded.citations['/number']).toMatchObject({ grounded: false });
    expect(grounded.pageImages).toEqual({ '1': 'ref' });
    expect(previews).toHaveBeenCalledWith(source, grounded.citations);
  });

  it('stores no citations when none were asked for, and says when nothing was written', async () => {
    const complete = vi.fn(() => Promise.resolve(false));
    const result = await finishStep(
      { lifecycle: { complete } },
      'id-2',
      false,
      source,
      answer({ total: 1 }),
      spent,
    );
    expect(result).toEqual({ written: false });
    expect(complete).toHaveBeenCalledWith('id-2', { total: 1 }, spent, {
      citations: null,
      warnings: null,
      pageImages: undefined,
    });
  });
});
