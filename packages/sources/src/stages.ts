import type { SourceType } from '@xt/contract';

/**
 * The stages of preparing a source whose durations a caller may measure (the worker records
 * them as metrics, docs/observability.md):
 * - `fetch`: downloading a URL source, or reading an upload from the blob store;
 * - `render`: a webpage in Chromium (its own navigation and downloads included);
 * - `convert`: a document laid out as a PDF by LibreOffice, waiting for a converter included;
 * - `rasterise`: PDF and image preparation on the prep threads, queueing for a thread included
 *   (a PDF's pages counted to decide whether it is split into windows, and read in the same pass
 *   when it is not);
 * - `parse`: a spreadsheet read into its sheets (a LibreOffice rewrite, then a prep thread).
 */
export const SOURCE_STAGES = ['fetch', 'render', 'convert', 'rasterise', 'parse'] as const;
export type SourceStage = (typeof SOURCE_STAGES)[number];

/** Runs `work` and records how long it took under `stage`, whether it succeeded or not. */
export type SourceStageTimer = <T>(
  stage: SourceStage,
  type: SourceType,
  work: () => Promise<T>,
) => Promise<T>;

/** For code built without metrics (tests of one part): runs the work, records nothing. */
export const untimed: SourceStageTimer = (_stage, _type, work) => work();
