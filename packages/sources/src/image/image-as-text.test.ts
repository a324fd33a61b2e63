import { describe, expect, it } from 'vitest';
import { failureOf } from '@xt/testkit';
import * as fx from '@xt/testkit/fixtures';
import { prepareImage } from './prepare-image.ts';

const opts = {
  model: 'gpt-4.1' as const,
  maxPixels: 50_000_000,
  ocr: { timeoutMs: 30_000 },
  images: false,
};

describe('prepareImage for a model that takes no images', () => {
  it('sends the OCR lines in reading order as text, and keeps page 1 with their boxes', async () => {
    const png = await fx.textImagePng(['Invoice INV-77', 'Total due 12.50 EUR', 'Thank you']);
    const prepared = await prepareImage(png, opts);
    expect(prepared.parts).toEqual([
      { kind: 'text', text: 'Invoice INV-77\nTotal due 12.50 EUR\nThank you', unit: 1 },
    ]);
    expect(prepared.imagesAsText).toEqual({ pages: 0, images: 1, leftOut: 0 });
    const grounding = prepared.grounding;
    expect(grounding?.kind).toBe('pages');
    if (grounding?.kind !== 'pages') return;
    expect(grounding.pages).toHaveLength(1);
    expect(grounding.pages[0]).toMatchObject({ page: 1, ocr: true });
    expect(grounding.pages[0]!.lines[1]!.text).toBe('Total due 12.50 EUR');
    const [left, top, right, bottom] = grounding.pages[0]!.lines[1]!.box;
    expect(left).toBeLessThan(right);
    expect(top).toBeLessThan(bottom);
    expect(bottom).toBeLessThanOrEqual(1);
  });

  it('fails as unreadable when OCR finds no text, rather than sending the model nothing', async () => {
    const blank = await fx.pngImage({ width: 300, height: 200 });
    const err = await failureOf(prepareImage(blank, opts));
    expect(err.code).toBe('SOURCE_UNREADABLE');
  });

  it('still refuses what it refuses for an image model', async () => {
    const err = await failureOf(prepareImage(fx.pixelBombPng(), opts));
    expect(err.code).toBe('SOURCE_TOO_LARGE');
  });
});
