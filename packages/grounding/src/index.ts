export { leafProbabilities, type TokenLogprob } from './probabilities.ts';
export { locateValue } from './locate.ts';
export type { Located } from './locations.ts';
export {
  buildCitations,
  confidenceOf,
  GROUNDED_ONLY_CONFIDENCE,
  OCR_UNCERTAIN_BELOW,
  UNGROUNDED_FACTOR,
  UNGROUNDED_ONLY_CONFIDENCE,
} from './citations.ts';
export { jsonPointer, leaves } from './pointer.ts';
export { indexSource, type SourceIndex } from './source-index.ts';
export { groundOutput, type GroundedOutput, type ModelAnswer } from './grounded-output.ts';
