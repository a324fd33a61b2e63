import type { SplitInput } from './bundle-types.ts';
import type { ExtractionPriority, PublicModel, SourceType } from './types.ts';
import type { Upload } from './uploads.ts';

/**
 * What every create takes. With `schemaId` the source is extracted whole; with `split` (a
 * `pdf`, `document`, `image` or `auto` source) it is a bundle, cut into documents of the classes
 * named, each extracted with its class's schema (docs/split.md). Never both.
 */
export type CreateExtractionParams = ExtractionParamsBase &
  ({ schemaId: string; split?: never } | { split: SplitInput; schemaId?: never });

export interface ExtractionParamsBase {
  type: SourceType;
  /** Text, a URL, or a file to upload (for `text`, `pdf` and `image`). */
  source: string | Upload;
  model?: PublicModel;
  instruction?: string;
  metadata?: Record<string, string>;
  /**
   * Locate each output value in the source: the outcome and the records then carry
   * `citations`, keyed by JSON Pointer into the output. Default false.
   */
  citations?: boolean;
  /**
   * Reuse of an earlier answer with the same source, schema structure, instruction, model and
   * citations (docs/reuse.md): `false` does the work afresh, `{ maxAge }` accepts answers at
   * most that many seconds old. Unset: the service's default (`CACHE_MAX_AGE_SECONDS`).
   */
  cache?: false | { maxAge: number };
  /**
   * `batch`: the model is called through the provider's batch interface at its lower price,
   * within the service's batch window (24 hours by default; docs/batch.md). Default `standard`.
   */
  priority?: ExtractionPriority;
}
