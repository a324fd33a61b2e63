import { ExtractionFailure, traitsOf, type PreparedSource } from '@xt/contract';
import { groundOutput } from '@xt/grounding';
import type { ExtractResult, ModelClient } from '@xt/model';
import type { WindowJobPayload } from '@xt/queue';
import type { SourcePreparer } from '@xt/sources';
import type { PagePreviews } from '../../page-previews/index.ts';
import type { ExtractionRow } from '../lifecycle.ts';
import { annotationsToJson } from './stored-answer.ts';
import type { WindowStore } from './store.ts';

/** Thrown in place of a model call once the extraction is found deleted: nothing is sent. */
export class ExtractionGone extends Error {
  constructor() {
    super('the extraction was deleted');
    this.name = 'ExtractionGone';
  }
}

/**
 * The model client a window calls through: before each call (chunks, repairs, continuations)
 * it looks whether the extraction still exists, so that after a delete nothing more reaches the
 * model. The per-extraction ceilings (MAX_MODEL_CALLS_PER_EXTRACTION,
 * MAX_INPUT_TOKENS_PER_EXTRACTION) are shared out by pages: a window may spend its pages' share.
 */
export function windowClient(
  model: ModelClient,
  stillWanted: () => Promise<boolean>,
  share: number,
): ModelClient {
  const part = (limit: number) =>
    Number.isFinite(limit) ? Math.max(1, Math.ceil(limit * share)) : limit;
  return {
    ...model,
    maxExtractionCalls: part(model.maxExtractionCalls),
    maxExtractionInputTokens: part(model.maxExtractionInputTokens),
    schedule: (call) =>
      model.schedule(async () => {
        if (!(await stillWanted())) throw new ExtractionGone();
        return call();
      }),
  };
}

type WindowRow = Pick<
  ExtractionRow,
  | 'id'
  | 'sourceType'
  | 'file'
  | 'fileRef'
  | 'model'
  | 'citationsRequested'
  | 'schemaStructure'
  | 'instruction'
>;

/**
 * The window's pages only, with the document's page numbers: read from the window's own PDF,
 * which the extraction's job cut from the document (`splitStep`), so that a window reads only
 * its pages and never opens the whole document, nor fetches a URL source again. A window of an
 * upload split before windows had PDFs of their own has none: it reads its pages from the
 * stored upload (a `pdf`) or from the PDF a `document` was converted to once for its windows,
 * as it was split to. (URL sources were split only once windows had PDFs of their own.)
 */
export async function prepareWindow(
  sources: Pick<SourcePreparer, 'prepareUpload'>,
  stored: Pick<WindowStore, 'pdf' | 'source'>,
  row: WindowRow,
  window: WindowJobPayload,
  signal: AbortSignal,
  /** `images: false`: the model takes no images, so scans go as OCR text (docs/sources.md). */
  { images = true }: { images?: boolean } = {},
): Promise<PreparedSource> {
  const opts = {
    model: row.model,
    signal,
    citations: row.citationsRequested,
    ...(images ? {} : { images }),
  };
  const converted = (notesPages: boolean) =>
    traitsOf(row.sourceType).convertedToPdf ? { converted: { notesPages } } : {};
  const own = await stored.pdf(row.id, window.index);
  if (own)
    return sources.prepareUpload(
      'pdf',
      // No preparation's key: a window's pages are neither taken from nor kept in preparations.
      { ref: own.ref, contentType: 'application/pdf', sha256: '' },
      {
        ...opts,
        ...converted(own.notesPages),
        window: { first: own.firstPage, last: own.lastPage, total: window.pagesTotal },
      },
    );
  // A URL source's windows were always cut their own PDFs: without one there is nothing to read.
  if (!row.file) throw new ExtractionFailure('INTERNAL', "The page window's PDF is not stored.");
  const pages = { first: window.firstPage, last: window.lastPage };
  if (!traitsOf(row.sourceType).convertedToPdf)
    return sources.prepareUpload(
      row.sourceType,
      { ref: row.fileRef, contentType: row.file.contentType, sha256: row.file.sha256 },
      { ...opts, pages },
    );
  const whole = await stored.source(row.id);
  if (!whole)
    throw new ExtractionFailure('INTERNAL', "The page window's PDF is not stored.", {
      retryable: true,
    });
  return sources.prepareUpload(
    'pdf',
    { ref: whole.ref, contentType: 'application/pdf', sha256: row.file.sha256 },
    { ...opts, pages, ...converted(whole.notesPages) },
  );
}

/**
 * Stores the window's answer once, with the window's pages as read (to locate values in) and
 * previews of its cited pages drawn now, while its pages are at hand. Returns whether this run
 * wrote it (false: an earlier run did, or the extraction is gone).
 */
export async function storeWindow(
  deps: { windows: Pick<WindowStore, 'record'>; previews?: PagePreviews | undefined },
  extractionId: string,
  row: WindowRow,
  window: WindowJobPayload,
  source: PreparedSource,
  result: ExtractResult,
): Promise<boolean> {
  const citations = row.citationsRequested;
  const grounding = citations && source.grounding?.kind === 'pages' ? source.grounding.pages : null;
  const pageImages = citations
    ? ((await deps.previews?.(source, groundOutput(result, source, true).citations)) ?? null)
    : null;
  return deps.windows.record({
    extractionId,
    windowIndex: window.index,
    firstPage: window.firstPage,
    lastPage: window.lastPage,
    output: result.output,
    annotations: annotationsToJson(result.annotations),
    truncated: result.truncated,
    grounding,
    pageImages,
    imagesAsText: source.imagesAsText ?? null,
    tokens: result.totalTokens,
    usage: result.usage,
    calls: result.calls,
  });
}
