/**
 * What the worker lends to the benchmark (scripts/bench): its source preparers, measured there
 * exactly as jobs run them. The worker process itself starts from main.ts.
 */
export { prepareImage, visionSize, visionTokens } from './sources/image/index.ts';
export { preparePdf, renderSize } from './sources/pdf/index.ts';
export { createWebpageRenderer } from './sources/webpage/index.ts';
export { prepareTextBytes } from './sources/text.ts';
export { groundOutput } from './grounded-output.ts';
