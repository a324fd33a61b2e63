import sharp from 'sharp';
import type { ContentPart, PublicModel } from '@xt/contract';

export interface TileGeometry {
  width: number;
  height: number;
}

/**
 * Tile size chosen so the model sees each tile at (nearly) full resolution:
 * - gpt-4.1 (high detail) fits an image into 2048×2048, then scales the short side to 768 px
 *   and counts 512-px squares. A 1024×1536 tile becomes 768×1152 (6 squares, ~1.1k tokens):
 *   text at 75 % scale stays legible. One 1024×8000 page would instead shrink to 262×2048 and
 *   be unreadable, which is why the page is tiled at all.
 * - gpt-4.1-mini counts 32-px patches up to 1536 before downscaling: 1024×1536 is exactly
 *   32×48 = 1536 patches, so a tile reaches it unscaled.
 * The render viewport is as wide as a tile, so tiling never rescales horizontally.
 */
export function tileGeometry(_model: PublicModel): TileGeometry {
  return { width: 1024, height: 1536 };
}

/** True when a tile is a flat colour (page background below the content): not worth tokens. */
async function isBlank(tile: Buffer): Promise<boolean> {
  const stats = await sharp(tile).stats();
  return stats.channels.every((c) => c.stdev < 2);
}

/** Cuts a full-page screenshot into model-sized JPEG tiles, top to bottom, skipping blank ones. */
export async function tileScreenshot(
  png: Buffer,
  geometry: TileGeometry,
  firstUnit: number,
): Promise<Extract<ContentPart, { kind: 'image' }>[]> {
  const meta = await sharp(png).metadata();
  const width = Math.min(meta.width ?? 0, geometry.width);
  const height = meta.height ?? 0;
  const tiles: Extract<ContentPart, { kind: 'image' }>[] = [];
  for (let top = 0; top < height; top += geometry.height) {
    const tileHeight = Math.min(geometry.height, height - top);
    const raw = await sharp(png)
      .extract({ left: 0, top, width, height: tileHeight })
      .png()
      .toBuffer();
    if (await isBlank(raw)) continue;
    const jpeg = await sharp(raw).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    tiles.push({
      kind: 'image',
      dataUrl: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
      width,
      height: tileHeight,
      unit: firstUnit + tiles.length,
      detail: 'high',
    });
  }
  return tiles;
}
