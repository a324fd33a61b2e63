import { describe, expect, it } from 'vitest';
import { estimateImageTokens, estimatePartTokens, estimateTextTokens } from './tokens.ts';

describe('token estimates', () => {
  it('counts ASCII text at about four characters per token and CJK at one per character', () => {
    expect(estimateTextTokens('a'.repeat(400))).toBe(100);
    expect(estimateTextTokens('請求書番号')).toBe(5);
    expect(estimateTextTokens('ééé')).toBe(2);
    expect(estimateTextTokens('')).toBe(0);
  });

  // figures from OpenAI's vision pricing guide
  it('uses the tile formula for gpt-4.1', () => {
    expect(estimateImageTokens('gpt-4.1', 1024, 1024)).toBe(765);
    expect(estimateImageTokens('gpt-4.1', 2048, 4096)).toBe(1105);
    expect(estimateImageTokens('gpt-4.1', 4096, 8192, 'low')).toBe(85);
    expect(estimateImageTokens('gpt-4.1', 300, 200)).toBe(255);
  });

  it('uses 32px patches capped at 1536, times 1.62, for gpt-4.1-mini', () => {
    expect(estimateImageTokens('gpt-4.1-mini', 1024, 1024)).toBe(Math.ceil(1024 * 1.62));
    expect(estimateImageTokens('gpt-4.1-mini', 1800, 2400)).toBe(Math.ceil(1452 * 1.62));
    expect(estimateImageTokens('gpt-4.1-mini', 10000, 10000)).toBeLessThanOrEqual(
      Math.ceil(1536 * 1.62),
    );
  });

  it('estimates parts by kind', () => {
    expect(estimatePartTokens('gpt-4.1', { kind: 'text', text: 'abcd'.repeat(10) })).toBe(10);
    expect(
      estimatePartTokens('gpt-4.1', {
        kind: 'image',
        dataUrl: 'data:,',
        width: 1024,
        height: 1024,
      }),
    ).toBe(765);
  });
});
