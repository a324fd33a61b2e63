import { describe, expect, it } from 'vitest';
import { visionSize, visionTokens } from './vision-size.ts';

const patches = (s: { width: number; height: number }) =>
  Math.ceil(s.width / 32) * Math.ceil(s.height / 32);

describe('visionSize for gpt-4.1 (tiles)', () => {
  it('fits 2048 then brings the short side to 768, as OpenAI documents', () => {
    expect(visionSize('gpt-4.1', { width: 1024, height: 1024 })).toEqual({
      width: 768,
      height: 768,
    });
    expect(visionSize('gpt-4.1', { width: 2048, height: 4096 })).toEqual({
      width: 768,
      height: 1536,
    });
    expect(visionSize('gpt-4.1', { width: 3000, height: 2000 })).toEqual({
      width: 1152,
      height: 768,
    });
  });

  it('never upscales and keeps extreme strips inside 2048', () => {
    expect(visionSize('gpt-4.1', { width: 500, height: 300 })).toEqual({ width: 500, height: 300 });
    expect(visionSize('gpt-4.1', { width: 10_000, height: 100 })).toEqual({
      width: 2048,
      height: 20,
    });
  });

  it('charges 85 + 170 per 512 px tile', () => {
    expect(visionTokens('gpt-4.1', { width: 1024, height: 1024 })).toBe(85 + 170 * 4);
    expect(visionTokens('gpt-4.1', { width: 2048, height: 4096 })).toBe(85 + 170 * 6);
  });
});

describe('visionSize for gpt-4.1-mini (patches)', () => {
  it('leaves images within 1536 patches alone', () => {
    expect(visionSize('gpt-4.1-mini', { width: 1024, height: 1024 })).toEqual({
      width: 1024,
      height: 1024,
    });
  });

  it('shrinks larger images to the budget, at least as sharp as OpenAI’s example', () => {
    const seen = visionSize('gpt-4.1-mini', { width: 1800, height: 2400 });
    expect(patches(seen)).toBeLessThanOrEqual(1536);
    // OpenAI's worked example lands on 1056×1408 (1452 patches).
    expect(patches(seen)).toBeGreaterThanOrEqual(1452);
    expect(seen.width / seen.height).toBeCloseTo(1800 / 2400, 2);
  });

  it('holds the budget for odd sizes and aspect ratios', () => {
    for (const size of [
      { width: 4000, height: 1000 },
      { width: 1275, height: 1650 },
      { width: 99_999, height: 7 },
      { width: 5001, height: 4999 },
    ]) {
      const seen = visionSize('gpt-4.1-mini', size);
      expect(patches(seen)).toBeLessThanOrEqual(1536);
      expect(seen.width).toBeLessThanOrEqual(size.width);
      expect(seen.height).toBeLessThanOrEqual(size.height);
    }
  });

  it('bills patches at the mini multiplier', () => {
    expect(visionTokens('gpt-4.1-mini', { width: 1024, height: 1024 })).toBe(
      Math.ceil(1024 * 1.62),
    );
    expect(visionTokens('gpt-4.1-mini', { width: 8000, height: 8000 })).toBeLessThanOrEqual(
      Math.ceil(1536 * 1.62),
    );
  });
});
