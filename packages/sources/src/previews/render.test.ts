import sharp from 'sharp';
import { pageOfSizePdf as pdfOfPage } from '@xt/testkit/fixtures';
import { describe, expect, it } from 'vitest';
import { MAX_PREVIEW_HEIGHT, PREVIEW_WIDTH, previewSize, renderPreviews } from './render.ts';

const previewOf = async (bytes: Uint8Array, width?: number) => {
  const [preview] = await renderPreviews({
    kind: 'previews',
    type: 'pdf',
    bytes,
    pages: [1],
    maxImagePixels: 40_000_000,
    ...(width ? { width } : {}),
  });
  return sharp(preview!.jpeg).metadata();
};

describe('page previews of pages whose size the file declares', () => {
  it('draws an ordinary page at the preview width', async () => {
    expect(await previewOf(await pdfOfPage(595, 842))).toMatchObject({
      width: PREVIEW_WIDTH,
      height: 1415,
    });
  });

  it('draws a thumbnail at the width asked for, its aspect and height bound kept', async () => {
    expect(await previewOf(await pdfOfPage(595, 842), 240)).toMatchObject({
      width: 240,
      height: 340,
    });
    expect(await previewOf(await pdfOfPage(100, 2000), 240)).toMatchObject({
      width: 96,
      height: 8 * 240,
    });
  });

  it('draws a page twenty times taller than wide no taller than the bound', async () => {
    expect(await previewOf(await pdfOfPage(100, 2000))).toMatchObject({
      width: 400,
      height: MAX_PREVIEW_HEIGHT,
    });
  });

  it('draws a page 1 pt wide and 1,000 pt tall at once, not as a billion pixels', async () => {
    const started = performance.now();
    expect(await previewOf(await pdfOfPage(1, 1000))).toMatchObject({
      width: 8,
      height: MAX_PREVIEW_HEIGHT,
    });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('keeps a wide page at the preview width', () => {
    expect(previewSize({ width: 10_000, height: 1 })).toEqual({ width: PREVIEW_WIDTH, height: 1 });
  });
});
