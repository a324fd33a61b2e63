import { createHash } from 'node:crypto';
import { readAll } from '@xt/blob-store';
import type { BlobStore } from '@xt/blob-store';
import { ExtractionFailure, traitsOf, type PreparedSource, type SplitPages } from '@xt/contract';
import type { FetchedFile, PageBytes, SourcePreparer, UploadedSource } from '@xt/sources';
import type { ExtractionRow } from '../lifecycle.ts';

/** The start of each page's text, for the classification. */
export interface PageText {
  page: number;
  text: string;
}

/** A child's own file: its pages cut from the bundle, or a copy of the bundle's image. */
export interface ChildFile {
  sourceType: 'pdf' | 'image';
  bytes: Uint8Array;
  sha256: string;
  contentType: string;
}

/** A bundle read once: its pages' text, and a way to cut documents out of it. */
export interface ReadBundle {
  pagesTotal: number;
  pages: PageText[];
  /** What a URL source was found to be once fetched, for the records. */
  found?: Pick<FetchedFile, 'kind' | 'format'>;
  /** Each document's own file, in order; called once. */
  cut(documents: readonly SplitPages[]): Promise<ChildFile[]>;
  /** The bundle's pages to draw its thumbnails from (page-previews/bundle.ts). */
  drawn: PageBytes;
}

type BundleRow = Pick<
  ExtractionRow,
  'id' | 'sourceType' | 'source' | 'file' | 'fileRef' | 'model' | 'format'
>;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The line a PDF's reading starts each page's text with (`--- Page N ---`): the call numbers pages itself. */
const PAGE_MARKER = /^-{3} Page \d+ -{3}$/gm;

/** Each page's text from a source read as text (scans as their OCR text), by page number. */
export function pageTexts(source: PreparedSource, pagesTotal: number): PageText[] {
  const texts = new Map<number, string[]>();
  for (const part of source.parts) {
    if (part.kind !== 'text') continue;
    const page = part.unit ?? 1;
    texts.set(page, [...(texts.get(page) ?? []), part.text]);
  }
  return Array.from({ length: pagesTotal }, (_, i) => ({
    page: i + 1,
    text: (texts.get(i + 1) ?? []).join('\n').replace(PAGE_MARKER, '').trim(),
  }));
}

/**
 * Reads a bundle as PDF pages (docs/split.md): a `pdf` as its bytes, a `document` converted
 * once, an `image` as one page, an `auto` as the kind its content is; a URL source fetched once
 * (as a long document's page windows are, job/windows/split-step.ts). Its pages are read as text
 * (a scanned page as its OCR text, as for a model that takes no images) for the classification
 * only: each child reads its own pages afresh, as its model takes them.
 */
export async function readBundle(
  deps: {
    sources: Pick<
      SourcePreparer,
      | 'countUploadPages'
      | 'convertUpload'
      | 'prepareUpload'
      | 'prepareFetched'
      | 'cutPdf'
      | 'fetchUrl'
    >;
    store: BlobStore;
    maxUploadBytes: number;
  },
  row: BundleRow,
  signal: AbortSignal,
): Promise<ReadBundle> {
  const { sources } = deps;
  // Text only and nothing kept: this reading is the classification's, not an extraction's.
  const opts = { model: row.model, signal, citations: false, images: false };
  let file: UploadedSource | FetchedFile;
  let kind = row.sourceType;
  let found: ReadBundle['found'];
  if (row.file) {
    file = { ref: row.fileRef, contentType: row.file.contentType, sha256: row.file.sha256 };
  } else {
    const fetched = await sources.fetchUrl(row.sourceType, row.source, opts);
    if (!fetched) throw notPages(row.sourceType);
    file = fetched;
    kind = fetched.kind;
    found = { kind: fetched.kind, format: fetched.format };
  }
  // A bundle read as one PDF: its pages' text, and its documents cut from it. Without a
  // presentation's notes pages: a child numbers its pages as the bundle's slides, and a notes
  // page has no such number (docs/split.md#limits).
  const pdfBundle = (pdf: Buffer, read: PreparedSource, pagesTotal: number): ReadBundle => ({
    pagesTotal,
    pages: pageTexts(read, pagesTotal),
    ...(found ? { found } : {}),
    cut: async (documents) => {
      const pdfs = await sources.cutPdf(
        pdf,
        documents.map((d) => ({ first: d.from, last: d.to, total: pagesTotal })),
        false,
      );
      return pdfs.map((bytes) => ({
        sourceType: 'pdf',
        bytes,
        sha256: sha256(bytes),
        contentType: 'application/pdf',
      }));
    },
    drawn: { drawAs: 'pdf', bytes: pdf },
  });
  const traits = traitsOf(kind);
  if (traits.convertedToPdf) {
    // Converted, and read whole as its pages are counted: its PDF opened once.
    const converted = await sources.convertUpload(kind, file, opts);
    if (!converted?.read) throw notPages(kind);
    return pdfBundle(converted.pdf, converted.read, converted.pageCount);
  }
  if (traits.drawnAs === 'pdf') {
    // Counted and read whole in one opening of the PDF.
    const counted = await sources.countUploadPages(kind, file, opts);
    if (!counted?.read) throw notPages(kind);
    return pdfBundle(counted.bytes, counted.read, counted.pageCount);
  }
  if (traits.drawnAs === 'image') {
    const bytes =
      'bytes' in file
        ? file.bytes
        : row.fileRef
          ? await readAll(deps.store, row.fileRef, deps.maxUploadBytes)
          : undefined;
    if (!bytes) throw notPages(kind);
    const read =
      'bytes' in file
        ? await sources.prepareFetched(file, opts)
        : await sources.prepareUpload(kind, file, opts);
    const contentType = file.contentType;
    return {
      pagesTotal: 1,
      pages: pageTexts(read, 1),
      ...(found ? { found } : {}),
      drawn: { drawAs: 'image', bytes },
      // One page, one document at most: the child reads a copy of the image.
      cut: (documents) =>
        Promise.resolve(
          documents.map(() => ({ sourceType: 'image', bytes, sha256: sha256(bytes), contentType })),
        ),
    };
  }
  throw notPages(kind);
}

const notPages = (kind: string) =>
  new ExtractionFailure(
    'SOURCE_UNSUPPORTED',
    `A split reads a bundle as pages (a PDF, a document or an image); this source is ${kind}.`,
  );
