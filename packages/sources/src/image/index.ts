export { prepareImage, type ImageOptions } from './prepare-image.ts';
export { encodeForModel, type EncodedImage } from './encode.ts';
export { visionSize, visionTokens, type Size } from './vision-size.ts';
