import sharp from 'sharp';
import type { Size } from './vision-size.ts';

export interface EncodedImage extends Size {
  mime: 'image/png' | 'image/jpeg';
  dataUrl: string;
  /** Encoded size, before base64. */
  bytes: number;
}

/** Lossless is worth this much more upload than JPEG: text edges stay crisp for the model. */
const PNG_PREFERENCE = 1.1;
/** Above this many distinct colours in a sample the image is a photo: PNG would never win. */
const PHOTO_COLOURS = 1024;
const SAMPLE_PIXELS = 65_536;

function isGrey(rgb: Buffer): boolean {
  for (let i = 0; i < rgb.length; i += 3) {
    if (rgb[i] !== rgb[i + 1] || rgb[i] !== rgb[i + 2]) return false;
  }
  return true;
}

function sampledColours(rgb: Buffer, cap: number): number {
  const pixels = rgb.length / 3;
  const step = Math.max(1, Math.floor(pixels / SAMPLE_PIXELS));
  const seen = new Set<number>();
  for (let p = 0; p < pixels && seen.size <= cap; p += step) {
    const i = p * 3;
    seen.add((rgb[i]! << 16) | (rgb[i + 1]! << 8) | rgb[i + 2]!);
  }
  return seen.size;
}

/**
 * Encodes opaque 8-bit RGB pixels as PNG or JPEG, the two formats every OpenAI-compatible
 * server accepts. Photos go straight to JPEG q85. Anything else (text, screenshots, scans) is
 * tried both ways and the smaller kept, with a margin in favour of lossless PNG: noisy scans
 * come out far smaller as JPEG, clean text far smaller as PNG, and a 100-page PDF must stay
 * inside the provider's request size limit. Grey images are encoded with one channel.
 */
export async function encodeForModel(rgb: Buffer, size: Size): Promise<EncodedImage> {
  const grey = isGrey(rgb);
  const base = () => {
    const img = sharp(rgb, { raw: { width: size.width, height: size.height, channels: 3 } });
    return grey ? img.extractChannel(0).toColourspace('b-w') : img;
  };
  const jpeg = await base().jpeg({ quality: 85 }).toBuffer();
  let chosen: { mime: EncodedImage['mime']; data: Buffer } = { mime: 'image/jpeg', data: jpeg };
  if (grey || sampledColours(rgb, PHOTO_COLOURS) <= PHOTO_COLOURS) {
    const png = await base().png().toBuffer();
    if (png.length <= jpeg.length * PNG_PREFERENCE) chosen = { mime: 'image/png', data: png };
  }
  return {
    ...size,
    mime: chosen.mime,
    bytes: chosen.data.length,
    dataUrl: `data:${chosen.mime};base64,${chosen.data.toString('base64')}`,
  };
}
