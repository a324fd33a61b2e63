import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageSize } from './image-size.ts';

function blank(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 10, b: 10 } } });
}

describe('imageSize', () => {
  it('reads PNG and JPEG headers', async () => {
    expect(imageSize(await blank(37, 21).png().toBuffer())).toEqual({ width: 37, height: 21 });
    expect(imageSize(await blank(640, 480).jpeg({ progressive: true }).toBuffer())).toEqual({
      width: 640,
      height: 480,
    });
  });

  it('gives up on other bytes', async () => {
    expect(imageSize(await blank(5, 5).webp().toBuffer())).toBeUndefined();
    expect(imageSize(Buffer.from('not an image'))).toBeUndefined();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff]))).toBeUndefined();
  });
});
