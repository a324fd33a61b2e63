import { createHash } from 'node:crypto';
import {
  autoKindFor,
  ExtractionFailure,
  SOURCE_KINDS,
  type FormatName,
  type PreparedSource,
  type PublicModel,
  type SourceType,
} from '@xt/contract';
import type { BlobStore } from '@xt/blob-store';
import type { PagePreview, PreviewTask } from './previews/render.ts';
import type { WindowPages } from './pdf/window-pages.ts';
import { untimed, type SourceStageTimer } from './stages.ts';
import { readUpload, type UploadedSource } from './upload.ts';
import {
  contentReadWith,
  keepPreparation,
  withPreparations,
  type ContentId,
  type PreparationStore,
} from './preparations.ts';

export type { UploadedSource } from './upload.ts';

export interface PrepareOptions {
  model: PublicModel;
  signal: AbortSignal;
  /**
   * Citations were asked for: keep the source as read (`grounding`) beside the parts, and
   * read scanned pages with OCR, so that values can be located in it (docs/citations.md).
   */
  citations?: boolean | undefined;
  /**
   * Whether the model takes images; true when absent. false (most small local models): scanned
   * pages and images go as their OCR text, a webpage without its screenshots, and the source
   * records it for an IMAGES_READ_AS_TEXT warning (docs/sources.md#text-only-models). Part of
   * the key of `preparations`: a reading of one kind is never served for the other.
   */
  images?: boolean | undefined;
  /**
   * Earlier preparations of the same content, for the job's account and these options
   * (docs/reuse.md#preparations): a file read before is not read again. None when absent.
   */
  preparations?: PreparationStore | undefined;
  /**
   * A `pdf`'s page window (docs/scaling.md#one-large-document): only these pages are read, with
   * the document's own page numbers. Not taken from or kept in `preparations`.
   */
  pages?: { first: number; last: number } | undefined;
  /**
   * The `pdf` is one page window's own PDF, cut from a longer document by the extraction's job
   * (`cutPdf`): read whole, with the document's page numbers. Not taken from or kept in
   * `preparations`.
   */
  window?: WindowPages | undefined;
  /**
   * The `pdf` is a document LibreOffice converted (docs/sources.md#documents), read with its
   * comments and, for a presentation (`notesPages`), its speaker notes: a long document's
   * converted PDF, stored for its page windows.
   */
  converted?: { notesPages: boolean } | undefined;
}

/**
 * A URL source of a kind read from a file, fetched once through the guarded fetcher that
 * `prepare` uses (docs/security.md), for a job that looks at its bytes before deciding how to
 * read them (a long document's page windows, docs/scaling.md#one-large-document).
 */
export interface FetchedFile {
  url: string;
  /** The kind it is read as: the row's, or for `auto` the content's. */
  kind: SourceType;
  bytes: Buffer;
  contentType: string;
  format: FormatName;
  /** The bytes' SHA-256: the key of an earlier preparation of the same content. */
  sha256: string;
}

/** An uploaded (or fetched) file whose pages were counted, and read when short enough. */
export interface CountedUpload {
  pageCount: number;
  /** The file read whole, as `prepareUpload` reads it: set when it has no more than `readUpTo`. */
  read?: PreparedSource;
  /** The bytes read, to cut into windows (`cutPdf`). */
  bytes: Buffer;
}

/**
 * A `document` converted to PDF once for its job (docs/sources.md#documents), that PDF opened
 * once: what the steps that read it, cut it into page windows (docs/scaling.md) or a bundle's
 * documents (docs/split.md), and draw its previews take, none converting or opening it again.
 */
export interface ConvertedDocument {
  /** The converted PDF, whole: what windows and a bundle's documents are cut from. */
  pdf: Buffer;
  notesPages: boolean;
  /** Its pages (a presentation's slides: its notes pages are not counted). */
  pageCount: number;
  /**
   * The document read whole, as `prepareUpload` reads it (its PDF's bytes kept beside it for
   * the page previews, with citations): set when it has no more pages than `readUpTo`.
   */
  read?: PreparedSource;
  /** The uploaded document's content, by which its preparation is kept. */
  content: ContentId;
  /** A document fetched from a URL: what it was found to be, set on its preparation. */
  found?: PreparedSource['found'];
  /** Set when its tracked changes were accepted before conversion, set on its preparation. */
  revisions?: PreparedSource['revisions'];
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
  /**
   * A URL source of `type` fetched once, as `prepare` fetches it (`auto`: its kind found from
   * the content), for `countUploadPages`, `convertUpload` or `prepareFetched` to read without
   * fetching it again. Undefined, with nothing fetched, for a kind `prepare` does not fetch as
   * a file (typed text, a webpage).
   */
  fetchUrl(type: SourceType, url: string, opts: PrepareOptions): Promise<FetchedFile | undefined>;
  /** A fetched URL read whole, as `prepare` reads it after fetching, with what it was found. */
  prepareFetched(fetched: FetchedFile, opts: PrepareOptions): Promise<PreparedSource>;
  /**
   * How many pages an uploaded (or fetched, `fetchUrl`) file of `type` has, when it is a kind
   * read as pages that can be worked in windows (`pdf`), and when they are no more than
   * `readUpTo` (all, when absent) the file read whole in the same opening (`read`, kept in
   * preparations as `prepareUpload` keeps its reading): a short PDF is not read from the
   * store, fetched or opened twice. Undefined for any other kind, and for a file
   * prepared before (docs/reuse.md#preparations): `prepareUpload` (`prepareFetched`) takes that
   * preparation and reads nothing.
   */
  countUploadPages(
    type: SourceType,
    file: UploadedSource | FetchedFile,
    opts: PrepareOptions,
    readUpTo?: number,
  ): Promise<CountedUpload | undefined>;
  /**
   * An uploaded (or fetched) file of a kind converted to PDF before it is read (`document`),
   * converted, with its pages counted and, when there are no more than `readUpTo` (all, when
   * absent), read whole in the same opening of the PDF; undefined for any other kind, and for
   * a file prepared before. Refuses what `prepareUpload` would refuse before converting.
   */
  convertUpload(
    type: SourceType,
    file: UploadedSource | FetchedFile,
    opts: PrepareOptions,
    readUpTo?: number,
  ): Promise<ConvertedDocument | undefined>;
  /**
   * Each page window's pages of a long PDF (with `notesPages`, a presentation's export, its
   * slides' notes pages too) written into a PDF of its own, in a prep process, the PDF opened
   * once (docs/scaling.md#one-large-document). `pdf` is copied to the process, left whole here.
   */
  cutPdf(pdf: Uint8Array, windows: WindowPages[], notesPages: boolean): Promise<Uint8Array[]>;
  /** Draws page previews for the review view in a prep process (docs/citations.md#review-view). */
  renderPreviews(task: PreviewTask): Promise<PagePreview[]>;
  /** The state of the prep processes and the browser, read when metrics are scraped. */
  stats(): SourceStats;
  close(): Promise<void>;
}

/**
 * How one source kind is prepared. A kind that reads files has `bytes` (an upload, a fetched
 * file, or typed text as UTF-8); a kind that is rendered from its address has `url`.
 */
export interface SourceHandler {
  /**
   * The source's bytes, with the content type they were recognised as (null for typed text).
   * For text, `text/html` is read statically as Markdown, nothing in it run.
   */
  bytes?: (
    bytes: Buffer,
    contentType: string | null,
    opts: PrepareOptions,
  ) => Promise<PreparedSource>;
  /** A URL the kind renders itself (a webpage), rather than fetching it as a file. */
  url?: (url: string, opts: PrepareOptions) => Promise<PreparedSource>;
  /**
   * How many pages the file has, for a kind that can be worked in page windows, and when they
   * are no more than `readUpTo`, the file read whole in the same pass: the file opened once.
   */
  countPages?: (
    bytes: Buffer,
    opts: PrepareOptions,
    readUpTo: number,
  ) => Promise<{ pageCount: number; read?: PreparedSource }>;
}

/** The handlers dispatch() routes by type: a kind without one is not enabled on this worker. */
export type SourceHandlers = Partial<Record<SourceType, SourceHandler>>;

/** Fetches a file source's URL, insisting on a format its kind reads (@xt/fetcher). */
export type FileFetcher = (
  url: string,
  type: SourceType,
  signal: AbortSignal,
) => Promise<{ bytes: Buffer; contentType: string; format: FormatName }>;

export interface SourceStats {
  prep: { threads: number; busy: number; queued: number; max: number };
  browser: { contextsOpen: number; launches: number };
}

export const notEnabled = (type: SourceType) =>
  new ExtractionFailure(
    'SOURCE_UNSUPPORTED',
    `Sources of type ${type} are not enabled on this worker.`,
  );

/**
 * A file's bytes: an upload's read from the blob store (its `fetch` stage), a fetched file's
 * as they were fetched. An upload where uploads are not enabled is refused.
 */
export async function fileBytes(
  file: UploadedSource | FetchedFile,
  type: SourceType,
  uploads: { store: BlobStore; maxBytes: number } | undefined,
  time: SourceStageTimer,
): Promise<Buffer> {
  if ('bytes' in file) return file.bytes;
  if (!uploads) throw notEnabled(type);
  return time('fetch', type, () => readUpload(uploads.store, file, uploads.maxBytes));
}

/**
 * A file's bytes and what its preparation is kept by, for a step that reads it ahead of the
 * one job (counting a PDF's pages, converting a document); undefined, with nothing read from
 * the store, when a preparation of the same content was kept before
 * (docs/reuse.md#preparations): the one job takes that instead.
 */
export async function unpreparedBytes(
  type: SourceType,
  file: UploadedSource | FetchedFile,
  opts: PrepareOptions,
  uploads: { store: BlobStore; maxBytes: number } | undefined,
  time: SourceStageTimer,
): Promise<{ content: ContentId; bytes: Buffer } | undefined> {
  const content = contentReadWith(
    { type, sha256: file.sha256, contentType: file.contentType },
    opts,
  );
  if (opts.preparations && (await opts.preparations.read(content).catch(() => undefined)))
    return undefined;
  return { content, bytes: await fileBytes(file, type, uploads, time) };
}

/**
 * Routes a source to its kind's handler, the way the registry says the kind takes its source
 * (docs/sources.md): typed text as bytes; a URL rendered by the kind itself, or fetched as a file
 * and then read from its bytes; an upload read from the blob store. A kind without a handler for
 * the way it came is not enabled.
 */
export function dispatch(
  handlers: SourceHandlers,
  files: {
    fetch: FileFetcher;
    uploads?: { store: BlobStore; maxBytes: number } | undefined;
  },
  time: SourceStageTimer = untimed,
): Pick<
  SourcePreparer,
  'prepare' | 'prepareUpload' | 'countUploadPages' | 'fetchUrl' | 'prepareFetched'
> {
  const bytesHandler = (type: SourceType) => {
    const handler = handlers[type]?.bytes;
    if (!handler) throw notEnabled(type);
    return handler;
  };
  async function fetchUrl(
    type: SourceType,
    source: string,
    opts: PrepareOptions,
  ): Promise<FetchedFile | undefined> {
    if (SOURCE_KINDS[type].inputs.inline || handlers[type]?.url) return undefined;
    const fetched = await time('fetch', type, () => files.fetch(source, type, opts.signal));
    // `auto`: the kind is the content's (a page that serves HTML is rendered as a webpage).
    const kind =
      SOURCE_KINDS[type].layout === 'detected' ? autoKindFor(fetched.format, 'url') : type;
    if (!kind) throw notEnabled(type);
    return { url: source, kind, ...fetched, sha256: sha256(fetched.bytes) };
  }
  async function prepareFetched(fetched: FetchedFile, opts: PrepareOptions) {
    const renderFound = handlers[fetched.kind]?.url;
    const prepared = renderFound
      ? await renderFound(fetched.url, opts)
      : await withPreparations(opts.preparations, contentOf(fetched, opts), () =>
          bytesHandler(fetched.kind)(fetched.bytes, fetched.contentType, opts),
        );
    // Set on the prepared object itself: what preparation kept beside it is keyed by it.
    prepared.found = { type: fetched.kind, format: renderFound ? null : fetched.format };
    return prepared;
  }
  return {
    fetchUrl,
    prepareFetched,
    async prepareUpload(type, file, opts) {
      const { uploads } = files;
      if (!uploads) throw notEnabled(type);
      const read = bytesHandler(type);
      const content = contentReadWith(
        { type, sha256: file.sha256, contentType: file.contentType },
        opts,
      );
      if (opts.pages || opts.window) {
        const bytes = await fileBytes(file, type, uploads, time);
        return read(bytes, file.contentType, { ...opts, preparations: undefined });
      }
      // Reading an upload from the blob store is this source's fetch; a preparation of the
      // same content from before needs neither.
      return withPreparations(opts.preparations, content, async () => {
        const bytes = await fileBytes(file, type, uploads, time);
        return read(bytes, file.contentType, opts);
      });
    },
    async countUploadPages(type, file, opts, readUpTo = Number.POSITIVE_INFINITY) {
      const count = handlers[type]?.countPages;
      if (!count || (!('bytes' in file) && !files.uploads)) return undefined;
      const unprepared = await unpreparedBytes(type, file, opts, files.uploads, time);
      if (!unprepared) return undefined;
      const { content, bytes } = unprepared;
      // The pool copies what it is given, so `bytes` stays whole for a long file's windows.
      const { pageCount, read } = await count(bytes, opts, readUpTo);
      if (read) {
        // As `prepareUpload` (`prepareFetched`) would have kept and told it.
        if (!opts.pages && !opts.window) await keepPreparation(opts.preparations, content, read);
        if ('bytes' in file) read.found = { type: file.kind, format: file.format };
      }
      return { pageCount, bytes, ...(read ? { read } : {}) };
    },
    async prepare(type, source, opts) {
      if (SOURCE_KINDS[type].inputs.inline)
        return bytesHandler(type)(Buffer.from(source, 'utf8'), null, opts);
      const render = handlers[type]?.url;
      if (render) return render(source, opts);
      const fetched = await fetchUrl(type, source, opts);
      if (!fetched) throw notEnabled(type);
      return prepareFetched(fetched, opts);
    },
  };
}

/** What a fetched file's preparation is kept by: its kind, bytes, content type and reading. */
const contentOf = (fetched: FetchedFile, opts: PrepareOptions): ContentId =>
  contentReadWith(
    { type: fetched.kind, sha256: fetched.sha256, contentType: fetched.contentType },
    opts,
  );

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
