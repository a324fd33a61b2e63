import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ContentPart } from '@xt/contract';
import * as fx from '@xt/testkit/fixtures';
import { prepareImage } from './prepare-image.ts';
import { failureOf } from '@xt/testkit';

const LIMIT = 50_000_000;

type ImagePart = Extract<ContentPart, { kind: 'image' }>;

async function prepared(
  bytes: Buffer,
  model: 'gpt-4.1' | 'gpt-4.1-mini' = 'gpt-4.1',
  maxPixels = LIMIT,
) {
  const source = await prepareImage(bytes, { model, maxPixels });
  expect(source.parts).toHaveLength(1);
  const part = source.parts[0] as ImagePart;
  expect(part.kind).toBe('image');
  expect(part.detail).toBe('high');
  const match = /^data:(image\/(?:png|jpeg));base64,(.+)$/.exec(part.dataUrl);
  expect(match).not.toBeNull();
  const decoded = Buffer.from(match![2]!, 'base64');
  const meta = await sharp(decoded).metadata();
  // The declared size is the real size of what is sent.
  expect({ width: meta.width, height: meta.height }).toEqual({
    width: part.width,
    height: part.height,
  });
  return { part, mime: match![1], decoded, meta };
}

async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return Array.from(data.subarray(i, i + 3));
}

describe('prepareImage', () => {
  it('shrinks a photo to what gpt-4.1 sees and sends it as JPEG', async () => {
    const { part, mime } = await prepared(await fx.jpegImage({ width: 3000, height: 2000 }));
    expect({ width: part.width, height: part.height }).toEqual({ width: 1152, height: 768 });
    expect(mime).toBe('image/jpeg');
  });

  it('shrinks a photo to the gpt-4.1-mini patch budget', async () => {
    const { part } = await prepared(
      await fx.jpegImage({ width: 3000, height: 2000 }),
      'gpt-4.1-mini',
    );
    expect(Math.ceil(part.width / 32) * Math.ceil(part.height / 32)).toBeLessThanOrEqual(1536);
    expect(part.width).toBeGreaterThan(1152);
  });

  it('does not upscale a small image', async () => {
    const { part } = await prepared(await fx.pngImage({ width: 640, height: 480 }), 'gpt-4.1-mini');
    expect({ width: part.width, height: part.height }).toEqual({ width: 640, height: 480 });
  });

  it('accepts WebP and re-encodes it to a universally accepted format', async () => {
    const { part, mime } = await prepared(await fx.webpImage({ width: 4000, height: 1000 }));
    expect({ width: part.width, height: part.height }).toEqual({ width: 2048, height: 512 });
    expect(['image/png', 'image/jpeg']).toContain(mime);
  });

  it('keeps text-like images lossless as PNG', async () => {
    const { mime, meta } = await prepared(
      await fx.textImagePng(['Invoice 2024-001', 'Total: 1,234.50 EUR']),
    );
    expect(mime).toBe('image/png');
    expect(meta.channels).toBe(1);
  });

  it('uses only the first frame of an animated GIF', async () => {
    const { decoded, meta } = await prepared(await fx.animatedGif({ width: 120, height: 80 }, 3));
    expect(meta.pages ?? 1).toBe(1);
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 120, height: 80 });
    const [r, g, b] = await pixel(decoded, 60, 40);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(40);
    expect(b).toBeLessThan(40);
  });

  it('turns an image upright by its EXIF orientation', async () => {
    const { part, decoded } = await prepared(await fx.exifRotatedJpeg());
    expect({ width: part.width, height: part.height }).toEqual({ width: 200, height: 400 });
    const top = await pixel(decoded, 100, 20);
    const bottom = await pixel(decoded, 100, 380);
    expect(top[0]).toBeGreaterThan(200); // red
    expect(bottom[2]).toBeGreaterThan(200); // blue
  });

  it('flattens transparency on white', async () => {
    const transparent = await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const { decoded, meta } = await prepared(transparent);
    expect(meta.hasAlpha).toBe(false);
    expect(await pixel(decoded, 32, 32)).toEqual([255, 255, 255]);
  });

  it('refuses a pixel bomb from its header', async () => {
    const bomb = fx.pixelBombPng();
    expect(bomb.length).toBeLessThan(100_000);
    const err = await failureOf(prepareImage(bomb, { model: 'gpt-4.1', maxPixels: LIMIT }));
    expect(err.code).toBe('SOURCE_TOO_LARGE');
  });

  it('applies the configured pixel limit', async () => {
    const bytes = await fx.pngImage({ width: 1000, height: 1000 });
    const err = await failureOf(prepareImage(bytes, { model: 'gpt-4.1', maxPixels: 999_999 }));
    expect(err.code).toBe('SOURCE_TOO_LARGE');
    await expect(
      prepareImage(bytes, { model: 'gpt-4.1', maxPixels: 1_000_000 }),
    ).resolves.toBeDefined();
  });

  it('reports a truncated file as unreadable', async () => {
    const err = await failureOf(
      prepareImage(await fx.truncatedPng(), { model: 'gpt-4.1', maxPixels: LIMIT }),
    );
    expect(err.code).toBe('SOURCE_UNREADABLE');
  });

  it('refuses SVG without fetching what it references', async () => {
    const server = await fx.startFixtureServer({
      '/probe.png': { body: await fx.pngImage({ width: 8, height: 8 }), contentType: 'image/png' },
    });
    try {
      const svg = fx.svgImage(`${server.url}/probe.png`);
      const err = await failureOf(prepareImage(svg, { model: 'gpt-4.1', maxPixels: LIMIT }));
      expect(err.code).toBe('SOURCE_UNSUPPORTED');
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses bytes that are not an image', async () => {
    for (const bytes of [
      await fx.textPdf(['not an image']),
      Buffer.from('plain text, not pixels'),
    ]) {
      const err = await failureOf(prepareImage(bytes, { model: 'gpt-4.1', maxPixels: LIMIT }));
      expect(err.code).toBe('SOURCE_UNSUPPORTED');
    }
  });
});
