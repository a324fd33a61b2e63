import { ExtractionFailure, type FormatName, type PreparedSource } from '@xt/contract';
import { isPasswordProtected } from '@xt/formats';
import type { PrepareOptions } from '../preparer.ts';
import { untimed, type SourceStageTimer } from '../stages.ts';
import type { DocumentConverter } from './converter/converter.ts';
import { DOCUMENT_APPS, isDocumentFormat } from './export-filter.ts';

export interface DocumentReader {
  /**
   * A word-processing document or presentation, read as the PDF LibreOffice lays it out as
   * (docs/sources.md#documents): its pages as a PDF's are read, with its comments and speaker
   * notes beside the pages they belong to. Password-protected files are refused before any
   * work. For any caller with a document's bytes (an uploaded document, an email's attachment).
   */
  prepareDocumentBytes(
    bytes: Uint8Array,
    format: FormatName,
    opts: PrepareOptions,
  ): Promise<PreparedSource>;
}

export interface DocumentReaderDeps {
  converter: Pick<DocumentConverter, 'convertToPdf'>;
  /**
   * Reads the converted PDF as a `pdf` source is read (text layer, page images, OCR with
   * citations, its bytes kept for page previews), with what the export added beside the pages.
   */
  readPdf(
    pdf: Buffer,
    opts: PrepareOptions,
    converted: { notesPages: boolean },
  ): Promise<PreparedSource>;
  time?: SourceStageTimer | undefined;
}

/** "DOCX", or what a password-protected Office file is called. */
const nameOf = (format: FormatName) =>
  format === 'office-encrypted' ? 'Office' : format.toUpperCase();

export function createDocumentReader(deps: DocumentReaderDeps): DocumentReader {
  const time = deps.time ?? untimed;
  return {
    async prepareDocumentBytes(bytes, format, opts) {
      if (isPasswordProtected(bytes, format))
        throw new ExtractionFailure(
          'SOURCE_UNREADABLE',
          `The ${nameOf(format)} file is password-protected: its content is encrypted and cannot be read. Remove the password and send it again.`,
        );
      if (!isDocumentFormat(format))
        throw new ExtractionFailure(
          'SOURCE_UNSUPPORTED',
          `A ${nameOf(format)} file is not a document or presentation.`,
        );
      const pdf = await time('convert', 'document', () =>
        deps.converter.convertToPdf(bytes, format, { signal: opts.signal }),
      );
      return deps.readPdf(pdf, opts, { notesPages: DOCUMENT_APPS[format] === 'impress' });
    },
  };
}
