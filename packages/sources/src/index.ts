/**
 * Sources, from what a client submitted to the parts a model reads: fetching (through
 * @xt/fetcher's address checks), uploads from the blob store, text, PDFs and images prepared on
 * a pool of threads, and webpages rendered in Chromium. It knows nothing of extraction rows or
 * their states: the worker joins the two (docs/architecture.md).
 */
export {
  type PrepareOptions,
  type SourcePreparer,
  type SourceStats,
  type UploadedSource,
  type ConvertedDocument,
  type CountedUpload,
  type FetchedFile,
} from './preparer.ts';
export { createSourcePreparer } from './handlers.ts';
export type { SourcesConfig } from './sources-config.ts';
export { createPrepPool, type PrepPool } from './prep-pool/index.ts';
export { SOURCE_STAGES, type SourceStage, type SourceStageTimer } from './stages.ts';
export { chromiumExecutable } from './webpage/browser/executable.ts';
export { ChromiumLauncher, createWebpageRenderer, type BrowserIsolation } from './webpage/index.ts';
export { prepareImage, visionSize, visionTokens } from './image/index.ts';
export { preparePdf, renderSize } from './pdf/index.ts';
export { documentPage, windowPage, type WindowPages } from './pdf/window-pages.ts';
export { prepareTextBytes } from './text.ts';
export {
  createDocumentConverter,
  DEFAULT_SOFFICE,
  type ConverterIsolation,
  type DocumentConverter,
  type DocumentReader,
} from './document/index.ts';
export { PREVIEW_WIDTH, type PagePreview, type PreviewTask } from './previews/render.ts';
export { partBytesOf, sourceBytesOf, type PageBytes } from './previews/source-bytes.ts';
export {
  restorePrepared,
  serializePrepared,
  type ContentId,
  type PreparationStore,
} from './preparations.ts';
