import type { SourceType } from '@xt/contract';

/**
 * The stages of a job whose durations are measured (docs/observability.md):
 * - `fetch`: downloading a URL source, or reading an upload from the blob store;
 * - `render`: a webpage in Chromium (its own navigation and downloads included);
 * - `rasterise`: PDF and image preparation on the prep threads, queueing for a thread included;
 * - `model`: the model calls, repairs and chunks included;
 * - `store`: recording the outcome in PostgreSQL.
 */
export const STAGES = ['fetch', 'render', 'rasterise', 'model', 'store'] as const;
export type Stage = (typeof STAGES)[number];

/** Runs `work` and records how long it took under `stage`, whether it succeeded or not. */
export type StageTimer = <T>(stage: Stage, type: SourceType, work: () => Promise<T>) => Promise<T>;

/** For code built without metrics (tests of one part): runs the work, records nothing. */
export const untimed: StageTimer = (_stage, _type, work) => work();
