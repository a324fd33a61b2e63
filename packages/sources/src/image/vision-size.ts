import type { PublicModel } from '@xt/contract';

export interface Size {
  width: number;
  height: number;
}

/** gpt-4.1 (tile model, detail high): fit 2048×2048, then shrink the short side to 768. */
const TILE_FIT = 2048;
const TILE_SHORT_SIDE = 768;
const TILE_SIZE = 512;
/** gpt-4.1-mini (patch model): 32×32 patches, at most 1536 of them. */
const PATCH = 32;
const PATCH_BUDGET = 1536;
/** OpenAI bills patch tokens of gpt-4.1-mini at this multiple. */
const MINI_TOKEN_MULTIPLIER = 1.62;

function patches({ width, height }: Size): number {
  return Math.ceil(width / PATCH) * Math.ceil(height / PATCH);
}

function scaled({ width, height }: Size, factor: number): Size {
  return {
    width: Math.max(1, Math.floor(width * factor)),
    height: Math.max(1, Math.floor(height * factor)),
  };
}

function tileModelSize(size: Size): Size {
  const fit = Math.min(1, TILE_FIT / Math.max(size.width, size.height));
  const shortSide = Math.min(size.width, size.height) * fit;
  const factor = fit * Math.min(1, TILE_SHORT_SIDE / shortSide);
  if (factor >= 1) return { ...size };
  // Round rather than floor so 767.9999 stays 768, then clamp to the limits it was fitted to.
  const out = {
    width: Math.max(1, Math.round(size.width * factor)),
    height: Math.max(1, Math.round(size.height * factor)),
  };
  const long = Math.min(TILE_FIT, Math.max(out.width, out.height));
  const short = Math.min(TILE_SHORT_SIDE, Math.min(out.width, out.height));
  return out.width >= out.height ? { width: long, height: short } : { width: short, height: long };
}

function patchModelSize(size: Size): Size {
  if (patches(size) <= PATCH_BUDGET) return { ...size };
  // The largest scale that fits the budget (patch count only grows with scale): a little
  // sharper than OpenAI's own rounding recipe, and still never resized again by the server.
  let lo = 0;
  let hi = Math.sqrt((PATCH * PATCH * PATCH_BUDGET) / (size.width * size.height));
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (patches(scaled(size, mid)) <= PATCH_BUDGET) lo = mid;
    else hi = mid;
  }
  return scaled(size, lo);
}

/**
 * The size the model actually looks at for an image of `size` sent with detail `high`. Sending
 * anything larger only costs upload bytes and server-side resizing; never upscales.
 */
export function visionSize(model: PublicModel, size: Size): Size {
  return model === 'gpt-4.1-mini' ? patchModelSize(size) : tileModelSize(size);
}

/** Input tokens OpenAI charges for one image at detail `high` (after {@link visionSize}). */
export function visionTokens(model: PublicModel, size: Size): number {
  const seen = visionSize(model, size);
  if (model === 'gpt-4.1-mini') {
    return Math.ceil(Math.min(PATCH_BUDGET, patches(seen)) * MINI_TOKEN_MULTIPLIER);
  }
  const tiles = Math.ceil(seen.width / TILE_SIZE) * Math.ceil(seen.height / TILE_SIZE);
  return 85 + 170 * tiles;
}
