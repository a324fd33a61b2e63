import pLimit from 'p-limit';
import type { Logger } from 'pino';
import {
  ExtractionFailure,
  FORMATS,
  formatOfMime,
  type FormatName,
  type PreparedSource,
  type SourceType,
} from '@xt/contract';
import { detectFormat } from '@xt/formats';
import { createPinnedDispatcher, fetchSource, parseAllowlist } from '@xt/fetcher';
import type { WindowPages } from './pdf/window-pages.ts';
import { createDocumentConverter, createDocumentReader, readConverted } from './document/index.ts';
import { convertUploadWith } from './document/convert-upload.ts';
import { createPrepPool } from './prep-pool/index.ts';
import type { BlobStore } from '@xt/blob-store';
import {
  dispatch,
  type FileFetcher,
  type PrepareOptions,
  notEnabled,
  type SourceHandlers,
  type SourcePreparer,
} from './preparer.ts';
import { keepSourceBytes, type PageBytes } from './previews/source-bytes.ts';
import { withSentText } from './sent-text.ts';
import { createSpreadsheetReader } from './spreadsheet/reader.ts';
import { untimed, type SourceStageTimer } from './stages.ts';
import { createTextReader } from './text-reader.ts';
import { chromiumExecutable } from './webpage/browser/executable.ts';
import { createWebpageRenderer, type WebpageRenderer } from './webpage/index.ts';
import { prepareEmail, type AttachmentReaders } from './email/prepare-email.ts';
import { emailFormatOf } from './email/format.ts';
import { fetchCaps, type SourcesConfig } from './sources-config.ts';

/**
 * Turns any submitted source into the parts the model layer takes. The URL source types, wired to the worker's limits (docs/api.md#limits). Fetching and model calls
 * stay on the main loop (I/O); decoding and rasterising go to the prep processes; webpages are
 * rendered by one shared Chromium, a few pages at a time.
 */
export function createSourcePreparer(
  config: SourcesConfig,
  logger: Logger,
  options: {
    /** What Chromium may inherit of the caller's environment (filtered again by the renderer). */
    environment: Readonly<Record<string, string | undefined>>;
    /** The start-up check of Chromium; when it failed, webpage jobs fail at once, unretried. */
    chromium?: Promise<{ ok: boolean }> | undefined;
    /** Records each stage's duration (docs/observability.md). */
    time?: SourceStageTimer | undefined;
    /** Where uploaded files' bytes are read from; without it uploads are not enabled. */
    uploads?: { store: BlobStore; maxBytes: number } | undefined;
  },
): SourcePreparer {
  const { chromium, time = untimed } = options;
  const executablePath = chromiumExecutable(config.CHROMIUM_PATH);
  const allowlist = parseAllowlist(config.SOURCE_ALLOWLIST);
  // One pinned agent per process: connection reuse without ever skipping the address check.
  const dispatcher = createPinnedDispatcher(allowlist, {
    connectTimeoutMs: Math.min(10_000, config.FETCH_TIMEOUT_MS),
  });
  const pool = createPrepPool({
    size: config.PREP_THREADS,
    taskTimeoutMs: config.PREP_TIMEOUT_MS,
    maxHeapMb: config.PREP_THREAD_HEAP_MB,
    maxMemoryMb: config.PREP_MEMORY_MB,
  });
  // Loading pdf.js and sharp in a process takes about a second: do it before the first job needs it.
  pool.warm().catch((err: unknown) => logger.warn({ err }, 'prep processes did not warm up'));
  const renderSlot = pLimit(config.RENDER_CONCURRENCY);
  let renderer: WebpageRenderer | undefined;
  const fetchOptions = (maxBytes: number, signal: AbortSignal) => ({
    allowlist,
    maxBytes,
    timeoutMs: config.FETCH_TIMEOUT_MS,
    maxRedirects: config.MAX_REDIRECTS,
    signal,
    dispatcher,
  });

  // Scanned pages and images are read with OCR only when citations are asked for, or when the
  // model takes no images and OCR is the only way it can read them.
  const ocrOptions = {
    timeoutMs: config.OCR_TIMEOUT_MS,
    ...(config.OCR_LANGUAGES ? { languages: config.OCR_LANGUAGES } : {}),
  };
  const ocrFor = ({ citations, images }: PrepareOptions) =>
    citations || images === false ? { ocr: ocrOptions } : {};

  // Fetched and uploaded files take the same path from their bytes on. With citations the bytes
  // are kept for the page previews: the pool copies what it is given, so they stay whole.
  const keepFor = (citations: boolean | undefined, bytes: Buffer) =>
    citations ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
  const withBytes = <T extends PreparedSource>(
    prepared: T,
    kept: Uint8Array | undefined,
    drawAs: PageBytes['drawAs'],
    window?: WindowPages,
  ) =>
    kept
      ? keepSourceBytes(prepared, { drawAs, bytes: kept, ...(window ? { window } : {}) })
      : prepared;

  async function preparePdfBytes(
    bytes: Buffer,
    opts: PrepareOptions,
    converted = opts.converted,
    readUpTo?: number,
  ) {
    const { model, citations, images, pages, window } = opts;
    const kept = keepFor(citations, bytes);
    const pdf = await pool.runPrep({
      kind: 'pdf',
      bytes,
      opts: {
        model,
        mode: config.PDF_MODE,
        maxPages: config.MAX_PDF_PAGES,
        maxImagePages: config.MAX_PDF_IMAGE_PAGES,
        maxImagePixels: config.MAX_IMAGE_PIXELS,
        grounding: citations === true,
        ...ocrFor(opts),
        ...(images === false ? { images } : {}),
        ...(converted ? { converted } : {}),
        ...(pages ? { pages } : {}),
        ...(window ? { window } : {}),
        ...(readUpTo === undefined ? {} : { readUpTo }),
      },
    });
    logger.debug(
      { pages: pdf.pageCount, textPages: pdf.textPages, imagePages: pdf.imagePages },
      'pdf prepared',
    );
    // Only counted (a long document's pages, before its windows are cut): nothing to draw.
    if (readUpTo !== undefined && pdf.pageCount > readUpTo) return pdf;
    return withBytes(pdf, kept, 'pdf', window);
  }
  async function prepareImageBytes(bytes: Buffer, opts: PrepareOptions) {
    const kept = keepFor(opts.citations, bytes);
    const image = await pool.runPrep({
      kind: 'image',
      bytes,
      opts: {
        model: opts.model,
        maxPixels: config.MAX_IMAGE_PIXELS,
        ...ocrFor(opts),
        ...(opts.images === false ? { images: false } : {}),
      },
    });
    return withBytes(image, kept, 'image');
  }

  // Documents are laid out as PDFs by LibreOffice, isolated (docs/security.md), then read as
  // PDFs are; the converted PDF is what page previews draw.
  const converter = createDocumentConverter({
    executable: config.CONVERTER_PATH,
    user: config.CONVERTER_USER,
    launcher: config.HELPER_LAUNCHER,
    memoryMb: config.CONVERT_MAX_MEMORY_MB,
    timeoutMs: config.CONVERT_TIMEOUT_MS,
    concurrency: config.CONVERT_CONCURRENCY,
    environment: options.environment,
    requireIsolation: config.CONVERT_REQUIRE_ISOLATION === true,
    logger,
  });
  const archive = {
    maxExpandedBytes: config.MAX_ARCHIVE_EXPANDED_BYTES,
    maxEntries: config.MAX_ARCHIVE_ENTRIES,
    maxRatio: config.MAX_ARCHIVE_RATIO,
  };
  const documents = createDocumentReader({
    converter,
    archive,
    acceptChanges: (bytes, format) => pool.runPrep({ kind: 'accept-changes', bytes, format }),
    time,
  });
  const formatOf = async (bytes: Buffer, contentType: string | null) =>
    (contentType ? formatOfMime(contentType) : undefined) ?? (await detectFormat({ bytes })).format;

  const readText = createTextReader(pool, config.PREP_TEXT_TIMEOUT_MS);

  async function renderWebpage(url: string, { model, signal, citations, images }: PrepareOptions) {
    if (chromium && !(await chromium).ok)
      throw new ExtractionFailure(
        'SOURCE_UNSUPPORTED',
        'Webpage sources cannot be rendered: the worker could not start its browser (its start-up log says why).',
      );
    // Launched on first use: workers that never see a webpage never start a browser.
    renderer ??= createWebpageRenderer({
      ...(executablePath ? { executablePath } : {}),
      allowlist,
      pageTimeoutMs: config.PAGE_TIMEOUT_MS,
      networkIdleMs: config.NETWORK_IDLE_MS,
      maxPagesPerBrowser: config.BROWSER_MAX_PAGES,
      maxHtmlBytes: config.MAX_HTML_BYTES,
      maxRedirects: config.MAX_REDIRECTS,
      environment: options.environment,
      ...(config.BROWSER_USER === undefined ? {} : { browserUser: config.BROWSER_USER }),
      ...(config.HELPER_LAUNCHER === undefined ? {} : { launcher: config.HELPER_LAUNCHER }),
      logger,
    });
    const r = renderer;
    const rendered = await renderSlot(() =>
      time('render', 'webpage', () => r.render(url, { signal, model, images })),
    );
    return citations ? withSentText(rendered) : rendered;
  }

  const readSpreadsheet = createSpreadsheetReader(
    pool,
    {
      maxCells: config.MAX_SHEET_CELLS,
      archive,
      convert: (bytes, from) => converter.convertToXlsx(bytes, from),
    },
    logger,
  );
  /**
   * A spreadsheet file of a known format (XLSX, XLS, ODS, CSV, TSV) as model input: also what
   * another kind calls for a spreadsheet inside its source (an email's attachment).
   */
  const prepareSpreadsheetBytes = (
    bytes: Buffer,
    format: FormatName,
    opts: Pick<PrepareOptions, 'citations'>,
  ) => time('parse', 'spreadsheet', () => readSpreadsheet(bytes, format, opts));

  /** What each kind reads (docs/sources.md); the registry says how its source arrives. */
  const handlers: SourceHandlers = {
    text: { bytes: (bytes, contentType, { citations }) => readText(bytes, contentType, citations) },
    markdown: { bytes: (bytes, type, { citations }) => readText(bytes, type, citations, true) },
    pdf: {
      bytes: (bytes, _type, opts) => time('rasterise', 'pdf', () => preparePdfBytes(bytes, opts)),
      // Counted and, when short enough, read in one opening of the PDF.
      countPages: (bytes, opts, readUpTo) =>
        time('rasterise', 'pdf', async () => {
          const pdf = await preparePdfBytes(bytes, opts, opts.converted, readUpTo);
          return { pageCount: pdf.pageCount, ...(pdf.pageCount <= readUpTo ? { read: pdf } : {}) };
        }),
    },
    image: {
      bytes: (bytes, _type, opts) =>
        time('rasterise', 'image', () => prepareImageBytes(bytes, opts)),
    },
    webpage: { url: renderWebpage },
    spreadsheet: {
      bytes: (bytes, contentType, opts) => {
        const format = contentType ? formatOfMime(contentType) : undefined;
        if (!format)
          throw new Error(`a spreadsheet arrived without a known format (${contentType})`);
        return prepareSpreadsheetBytes(bytes, format, opts);
      },
    },
    email: {
      // Its attachments are timed by their own kinds' handlers.
      bytes: (bytes, _type, opts) =>
        prepareEmail(bytes, emailFormatOf(bytes), opts, {
          ...attachments,
          // Parsing MIME is linear in the message's size: held to the deadline of reading text.
          read: (message, format) =>
            pool.runPrep(
              { kind: 'email', bytes: message, format, maxParts: config.MAX_EMAIL_PARTS },
              { timeoutMs: config.PREP_TEXT_TIMEOUT_MS },
            ),
          maxImages: config.MAX_EMAIL_IMAGES,
        }),
    },
    document: {
      bytes: async (bytes, contentType, opts) => {
        const format = await formatOf(bytes, contentType);
        if (!format)
          throw new ExtractionFailure('SOURCE_UNSUPPORTED', 'The file is not a document.');
        // Converted, then read here as any PDF is: the document reader only lays it out.
        const converted = await documents.convertDocumentBytes(bytes, format, opts.signal);
        return readConverted(converted, (pdf, laidOut) =>
          time('rasterise', 'document', () => preparePdfBytes(pdf, opts, laidOut)),
        );
      },
    },
  };

  /**
   * An email's attachments go through the same handlers as a source of their kind, looked up
   * when the attachment is read: a kind enabled on this worker (documents, spreadsheets) is
   * read inside emails too, with nothing added here.
   */
  const attachments: AttachmentReaders = {
    reads: (kind) => handlers[kind]?.bytes !== undefined,
    prepareBytesOfKind: (kind: SourceType, bytes: Buffer, format: FormatName, opts) => {
      const read = handlers[kind]?.bytes;
      if (!read) return Promise.reject(notEnabled(kind));
      return read(bytes, FORMATS[format].mime, opts);
    },
    // Each kind's download cap, text's being what it is held to inside a message.
    maxBytes: (kind) => maxFetchBytes[kind],
  };

  const maxFetchBytes = fetchCaps(config);
  const fetchFile: FileFetcher = async (url, type, signal) => {
    const maxBytes = maxFetchBytes[type];
    if (maxBytes === undefined) throw new Error(`no download cap is set for ${type} sources`);
    return fetchSource(url, type, fetchOptions(maxBytes, signal));
  };

  return {
    ...dispatch(handlers, { fetch: fetchFile, uploads: options.uploads }, time),
    convertUpload: convertUploadWith({
      documents,
      uploads: options.uploads,
      formatOf,
      readPdf: (pdf, opts, converted, readUpTo) => preparePdfBytes(pdf, opts, converted, readUpTo),
      time,
    }),
    // Its own stage: the extraction's job pays it once for all of its windows.
    cutPdf: (pdf, windows, notesPages) =>
      time('parse', 'pdf', () =>
        pool.runPrep({
          kind: 'pdf-cut',
          bytes: pdf,
          opts: { windows, notesPages, maxImagePixels: config.MAX_IMAGE_PIXELS },
        }),
      ),
    renderPreviews: (task) => time('rasterise', task.type, () => pool.runPrep(task)),
    // The pool's own stats accessor, so a change of pool implementation changes only this line.
    stats: () => ({
      prep: { ...pool.stats, max: config.PREP_THREADS },
      browser: {
        contextsOpen: renderer?.contextsOpen ?? 0,
        launches: renderer?.browserLaunches ?? 0,
      },
    }),
    async close() {
      await renderer?.close();
      await pool.close();
      await dispatcher.close();
    },
  };
}
