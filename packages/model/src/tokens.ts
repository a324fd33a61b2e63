import type { ContentPart, PublicModel } from '@xt/contract';

/**
 * Token estimate of text without a tokenizer. English-like ASCII runs at about 4 characters per
 * token for OpenAI's o200k encoding; CJK ideographs and kana are roughly one token each; other
 * non-ASCII letters (accented Latin, Cyrillic, Greek, ...) about two characters per token. It
 * errs high rather than low, because it decides whether a document must be split.
 */
export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let wide = 0;
  let other = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) ascii += 1;
    else if (isWide(code)) wide += 1;
    else other += 1;
  }
  return Math.ceil(ascii / 4 + wide + other / 2);
}

function isWide(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // kana
    (code >= 0x3400 && code <= 0x9fff) || // CJK ideographs
    (code >= 0xac00 && code <= 0xd7af) || // Hangul
    (code >= 0xf900 && code <= 0xfaff) ||
    code >= 0x20000
  );
}

/**
 * Image input tokens as OpenAI bills them. gpt-4.1 uses tiles: fit into 2048x2048, scale the
 * short side down to 768, then 85 + 170 per 512px tile (85 flat for detail `low`). gpt-4.1-mini
 * uses 32px patches capped at 1536, times 1.62. `auto` is counted as `high`: it may be.
 */
export function estimateImageTokens(
  model: PublicModel,
  width: number,
  height: number,
  detail: 'low' | 'high' | 'auto' = 'high',
): number {
  if (model === 'gpt-4.1-mini') return Math.ceil(patchCount(width, height) * 1.62);
  if (detail === 'low') return 85;
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorten = Math.min(1, 768 / Math.min(w, h));
  w *= shorten;
  h *= shorten;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

const PATCH = 32;
const PATCH_BUDGET = 1536;

function patchCount(width: number, height: number): number {
  const raw = Math.ceil(width / PATCH) * Math.ceil(height / PATCH);
  if (raw <= PATCH_BUDGET) return raw;
  const shrink = Math.sqrt((PATCH * PATCH * PATCH_BUDGET) / (width * height));
  const w = (width * shrink) / PATCH;
  const h = (height * shrink) / PATCH;
  // OpenAI then shrinks further so one side is a whole number of patches
  const adjusted = shrink * Math.min(Math.floor(w) / w, Math.floor(h) / h);
  const resized = Math.ceil((width * adjusted) / PATCH) * Math.ceil((height * adjusted) / PATCH);
  return Math.min(resized, PATCH_BUDGET);
}

export function estimatePartTokens(model: PublicModel, part: ContentPart): number {
  return part.kind === 'text'
    ? estimateTextTokens(part.text)
    : estimateImageTokens(model, part.width, part.height, part.detail);
}
