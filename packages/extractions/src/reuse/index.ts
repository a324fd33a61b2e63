/*
 * Reuse of finished answers (docs/reuse.md): the key, the look-up, and the two ways a reused
 * answer is written (a create that completes at once; a URL job that completes after fetching).
 */
export {
  preparedSha256,
  reuseKey,
  textSha256,
  type ReuseKeyParts,
  type ReuseSource,
} from './key.ts';
export { findReusableForExtraction, findReusableForSchema, type ReuseLookup } from './lookup.ts';
export { writeReusedExtraction } from './create-reused.ts';
export {
  completeFromReuse,
  evidenceToDraw,
  recordDrawnEvidence,
  recordReuseKey,
  type ReuseOutcome,
} from './worker.ts';
export { reuseAtCreate } from './at-create.ts';
