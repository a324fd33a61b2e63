export { leafProbabilities, type TokenLogprob } from './probabilities.ts';
export { locateValue } from './locate.ts';
export type { Located } from './locations.ts';
export { buildCitations, confidenceOf, UNGROUNDED_FACTOR } from './citations.ts';
export { jsonPointer, leaves } from './pointer.ts';
export { indexSource, type SourceIndex } from './source-index.ts';
export { groundOutput, type GroundedOutput, type ModelAnswer } from './grounded-output.ts';
