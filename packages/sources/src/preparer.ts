import {
  ExtractionFailure,
  type PreparedSource,
  type PublicModel,
  type SourceType,
} from '@xt/contract';
import type { BlobStore } from '@xt/blob-store';
import type { PagePreview, PreviewTask } from './previews/render.ts';
import { untimed, type SourceStageTimer } from './stages.ts';
import { readUpload, type UploadedSource } from './upload.ts';

export type { UploadedSource } from './upload.ts';

export interface PrepareOptions {
  model: PublicModel;
  signal: AbortSignal;
  /**
   * Citations were asked for: keep the source as read (`grounding`) beside the parts, and
   * read scanned pages with OCR, so that values can be located in it (docs/citations.md).
   */
  citations?: boolean | undefined;
}

/**
 * The one thing the worker knows of sources: a submitted source (or an uploaded file) in,
 * the parts a model reads out. Built by createSourcePreparer (handlers.ts).
 */
export interface SourcePreparer {
  prepare(type: SourceType, source: string, opts: PrepareOptions): Promise<PreparedSource>;
  /** An uploaded file: its bytes come from the blob store instead of a fetch. */
  prepareUpload(
    type: SourceType,
    file: UploadedSource,
    opts: PrepareOptions,
  ): Promise<PreparedSource>;
  /** Draws page previews for the review view on a prep thread (docs/citations.md#review-view). */
  renderPreviews(task: PreviewTask): Promise<PagePreview[]>;
  /** The state of the prep threads and the browser, read when metrics are scraped. */
  stats(): SourceStats;
  close(): Promise<void>;
}

/** How each source type is prepared: the table dispatch() routes by type (see handlers.ts). */
export interface SourceHandlers {
  pdf?: (url: string, opts: PrepareOptions) => Promise<PreparedSource>;
  image?: (url: string, opts: PrepareOptions) => Promise<PreparedSource>;
  pdfBytes?: (bytes: Buffer, opts: PrepareOptions) => Promise<PreparedSource>;
  imageBytes?: (bytes: Buffer, opts: PrepareOptions) => Promise<PreparedSource>;
  /**
   * A text source as UTF-8 bytes: typed in (`contentType` null) or uploaded (`text/html` read
   * statically as Markdown, nothing in it run).
   */
  text?: (
    bytes: Buffer,
    contentType: string | null,
    opts: { citations?: boolean | undefined },
  ) => Promise<PreparedSource>;
  webpage?: (url: string, opts: PrepareOptions) => Promise<PreparedSource>;
}

export interface SourceStats {
  prep: { threads: number; busy: number; queued: number; max: number };
  browser: { contextsOpen: number; launches: number };
}

const notEnabled = (type: SourceType) =>
  new ExtractionFailure(
    'SOURCE_UNSUPPORTED',
    `Sources of type ${type} are not enabled on this worker.`,
  );

/** Routes a source to its type's handler; what a type has no handler for is not enabled. */
export function dispatch(
  handlers: SourceHandlers,
  uploads: { store: BlobStore; maxBytes: number } | undefined,
  time: SourceStageTimer = untimed,
): Pick<SourcePreparer, 'prepare' | 'prepareUpload'> {
  // Reading an upload from the blob store is this source's fetch.
  const read = (type: SourceType, file: UploadedSource, store: BlobStore, maxBytes: number) =>
    time('fetch', type, () => readUpload(store, file, maxBytes));
  return {
    async prepareUpload(type, file, opts) {
      if (!uploads) throw notEnabled(type);
      if (type === 'text') {
        const readText = handlers.text;
        if (!readText) throw notEnabled(type);
        return readText(
          await read(type, file, uploads.store, uploads.maxBytes),
          file.contentType,
          opts,
        );
      }
      const prepareBytes =
        type === 'pdf' ? handlers.pdfBytes : type === 'image' ? handlers.imageBytes : undefined;
      if (!prepareBytes) throw notEnabled(type);
      return prepareBytes(await read(type, file, uploads.store, uploads.maxBytes), opts);
    },
    async prepare(type, source, opts) {
      if (type === 'text') {
        if (!handlers.text) throw notEnabled(type);
        return handlers.text(Buffer.from(source, 'utf8'), null, opts);
      }
      const handler = handlers[type];
      if (!handler) throw notEnabled(type);
      return handler(source, opts);
    },
  };
}
