import type { PollOptions } from './poll.ts';
import type { CallOptions, TransportOptions } from './transport.ts';
import type { ExtractionOutcome, PublicModel } from './types.ts';
import type { Upload } from './uploads.ts';

/* What XtClient's methods take and answer beyond the wire types (client.ts re-exports them). */

export type ClientOptions = TransportOptions;

/** Creates take an Idempotency-Key; one is generated when not given and kept across retries. */
export interface CreateOptions extends CallOptions {
  idempotencyKey?: string;
}

export interface CreateExtractionOptions extends CreateOptions {
  /**
   * How long the service may hold the request before answering 202 (`Prefer: wait=N`);
   * 0 answers at once. Unset: the service's default (`EXTRACTION_WAIT_SECONDS`).
   */
  waitSeconds?: number;
}

export interface CreatedExtraction {
  /** 200 when finished in time, 202 when still running. */
  httpStatus: number;
  extraction: ExtractionOutcome;
  /** Seconds the service suggests before polling (202 only). */
  retryAfter: number | undefined;
  /** True when the service answered a repeat of an earlier request with the same key. */
  replayed: boolean;
  idempotencyKey: string;
}

export interface SuggestSchemaParams {
  /** 1 to 5 sample documents, any kind an extraction takes as an upload. */
  files: Upload[];
  /** What the schema is for, in your words: guides which fields are drafted. */
  prompt?: string;
  model?: PublicModel;
}

export type ExtractOptions = CreateExtractionOptions &
  PollOptions & {
    /** Give up on the whole call (a TimeoutError) after this long. Default: never. */
    timeoutMs?: number;
  };

/** A finished extraction as `extract()` returns it. */
export type CompletedExtraction = ExtractionOutcome & { status: 'completed' };
