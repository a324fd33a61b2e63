import { ExtractionFailure, traitsOf, type FormatName } from '@xt/contract';
import type { BlobStore } from '@xt/blob-store';
import type { PreparedPdf } from '../pdf/prepare-pdf.ts';
import { keepPreparation } from '../preparations.ts';
import { unpreparedBytes, type PrepareOptions, type SourcePreparer } from '../preparer.ts';
import type { SourceStageTimer } from '../stages.ts';
import type { DocumentReader } from './prepare-document.ts';

export interface ConvertUploadDeps {
  documents: Pick<DocumentReader, 'convertDocumentBytes'>;
  /** Where uploaded files' bytes are read from; without it only fetched files are converted. */
  uploads: { store: BlobStore; maxBytes: number } | undefined;
  formatOf(bytes: Buffer, contentType: string | null): Promise<FormatName | null | undefined>;
  /**
   * Reads the converted PDF as a `pdf` is read (its bytes kept for previews with citations),
   * none of its pages when it has more than `readUpTo`: its page count then only.
   */
  readPdf(
    pdf: Buffer,
    opts: PrepareOptions,
    converted: { notesPages: boolean },
    readUpTo: number,
  ): Promise<PreparedPdf>;
  time: SourceStageTimer;
}

/**
 * An uploaded (or fetched) document converted to PDF once for its job, and that PDF opened
 * once: its pages counted and, when there are no more than `readUpTo`, read whole in the same
 * pass (kept in preparations, as `prepareUpload` keeps its reading). What the conversion gave
 * (the PDF, its notes pages, the revisions' warning) goes with it to the steps that cut it into
 * page windows or a bundle's documents; the reading carries its bytes for the page previews.
 */
export function convertUploadWith(deps: ConvertUploadDeps): SourcePreparer['convertUpload'] {
  const { uploads, time } = deps;
  return async (type, file, opts, readUpTo = Number.POSITIVE_INFINITY) => {
    const fetched = 'bytes' in file ? file : undefined;
    if (!traitsOf(type).convertedToPdf || (!fetched && !uploads)) return undefined;
    // Read before (docs/reuse.md#preparations): the one job takes that, nothing is converted.
    const unprepared = await unpreparedBytes(type, file, opts, uploads, time);
    if (!unprepared) return undefined;
    const { content, bytes } = unprepared;
    const format = await deps.formatOf(bytes, file.contentType);
    if (!format) throw new ExtractionFailure('SOURCE_UNSUPPORTED', 'The file is not a document.');
    const { pdf, notesPages, revisions } = await deps.documents.convertDocumentBytes(
      bytes,
      format,
      opts.signal,
    );
    // The pool copies what it is given, so `pdf` stays whole for a long document's windows.
    const read = await time('rasterise', 'document', () =>
      deps.readPdf(pdf, opts, { notesPages }, readUpTo),
    );
    const whole = read.pageCount <= readUpTo ? read : undefined;
    if (whole) {
      // Inside the preparation, so that one taken from the store says it as well.
      if (revisions) whole.revisions = revisions;
      await keepPreparation(opts.preparations, content, whole);
      // What a fetched document was found to be, as `prepareFetched` sets it (not stored).
      if (fetched) whole.found = { type: fetched.kind, format: fetched.format };
    }
    return {
      pdf,
      notesPages,
      pageCount: read.pageCount,
      content,
      ...(revisions ? { revisions } : {}),
      ...(fetched ? { found: { type: fetched.kind, format: fetched.format } } : {}),
      ...(whole ? { read: whole } : {}),
    };
  };
}
