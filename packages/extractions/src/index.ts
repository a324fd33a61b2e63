/*
 * The extraction's lifecycle, whichever process drives it, one use case per file: the create
 * (write, enqueue, wait), find, delete, the worker's transitions (claim, complete, fail,
 * release) and the reconciler that gives rows left without a job a new one. Apps call these;
 * none of them writes an extraction's status on its own. Refusals are the errors in errors.ts,
 * which the API maps to HTTP.
 */
export {
  AlreadyReviewed,
  ExtractionNotFound,
  ReviewRefused,
  TooManyActive,
  UnknownSchema,
  UnknownSplitSchema,
} from './errors.ts';
export { type NewExtraction, type KeyClaim, type Transaction } from './create.ts';
export { createSubmitExtraction, type SubmitOutcome, type SubmitContext } from './submit.ts';
export {
  findExtraction,
  findExtractionFile,
  findExtractionPreviews,
  getExtraction,
} from './find.ts';
export { deleteExtraction } from './delete.ts';
export * from './enqueue.ts';
export * from './transitions.ts';
export * from './reconcile.ts';
export * from './reuse/index.ts';
export * from './windows.ts';
export { readPreparation, removeExpiredPreparations, storePreparation } from './preparations.ts';
export { referencedUploads, removeExpiredUploads } from './upload-retention.ts';
export { usageBySchema, usagePerDay, usageTotals } from './usage.ts';
export { batchRounds, type BatchRounds, type Round } from './batch-rounds.ts';
export { reviewExtraction, type ReviewInput } from './review/record-review.ts';
export { applyCorrections } from './review/corrections.ts';
export { reviewReasons, sampleDraw } from './review/decide.ts';
export * from './split.ts';
export { priorityOfUnfinished } from './unfinished.ts';
