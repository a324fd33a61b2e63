import { ExtractionFailure, FORMATS, type FormatName, type PreparedSource } from '@xt/contract';
import { isPasswordProtected } from '@xt/formats';
import { checkArchive, type ArchiveLimits } from '../archive/bounds.ts';
import { untimed, type SourceStageTimer } from '../stages.ts';
import { acceptTrackedChanges, hasTrackedChanges, type AcceptedChanges } from './accept-changes.ts';
import type { DocumentConverter } from './converter/converter.ts';
import { DOCUMENT_APPS, isDocumentFormat } from './export-filter.ts';
import { NOTES_ENTRIES, hasSpeakerNotes } from './speaker-notes.ts';

export interface DocumentReader {
  /**
   * A word-processing document or presentation laid out as a PDF by LibreOffice
   * (docs/sources.md#documents), with what the export added beside the pages (speaker notes'
   * pages) and whether tracked changes were accepted. Password-protected files and archives
   * past their bounds are refused before any work. The caller reads the PDF as a `pdf` source
   * is read (handlers.ts), once, for the one job, a page window's cut or a bundle's documents.
   */
  convertDocumentBytes(
    bytes: Uint8Array,
    format: FormatName,
    signal: AbortSignal,
  ): Promise<ConvertedPdf>;
}

export interface ConvertedPdf {
  pdf: Buffer;
  notesPages: boolean;
  /** Set when tracked changes were accepted before the layout (accept-changes.ts). */
  revisions?: PreparedSource['revisions'];
}

/** What the record's warning says of a document whose tracked changes were accepted. */
function changesAcceptedMessage(changes: number): string {
  return `The document has tracked changes (${changes} insertion${changes === 1 ? '' : 's'}, deletion${changes === 1 ? '' : 's'} or move${changes === 1 ? '' : 's'}); it was read with them accepted, so deleted text is not part of what was read.`;
}

export interface DocumentReaderDeps {
  converter: Pick<DocumentConverter, 'convertToPdf'>;
  /**
   * Bounds on a ZIP-based document (DOCX, PPTX, ODT, ODP), measured before LibreOffice opens it
   * (MAX_ARCHIVE_EXPANDED_BYTES, MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_RATIO).
   */
  archive: ArchiveLimits;
  time?: SourceStageTimer | undefined;
  /**
   * Accepts a DOCX's or ODT's tracked changes (accept-changes.ts), given a copy of its bytes:
   * in a prep process in the worker, since rewriting a large part's XML would hold the loop.
   * `bytes` is unused when `changes` is 0. Done here when absent.
   */
  acceptChanges?: ((bytes: Uint8Array, format: FormatName) => Promise<AcceptedChanges>) | undefined;
}

/** "DOCX", or what a password-protected Office file is called. */
const nameOf = (format: FormatName) =>
  format === 'office-encrypted' ? 'Office' : format.toUpperCase();

export function createDocumentReader(deps: DocumentReaderDeps): DocumentReader {
  const time = deps.time ?? untimed;
  const convertDocumentBytes: DocumentReader['convertDocumentBytes'] = async (
    bytes,
    format,
    signal,
  ) => {
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
    let notesPages = DOCUMENT_APPS[format] === 'impress';
    let revisions: ConvertedPdf['revisions'];
    const pdf = await time('convert', 'document', async () => {
      // An expansion bomb or a damaged archive fails here, from the archive's directory and one
      // streamed inflation that keeps nothing but a presentation's notes, before LibreOffice
      // would inflate it whole (or try to repair it).
      if (FORMATS[format].detectedBy === 'zip') {
        const report = await checkArchive(
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          'document',
          deps.archive,
          notesPages ? { keep: NOTES_ENTRIES } : {},
        );
        // Notes pages double the conversion's time: a deck seen to have no notes goes without.
        if (notesPages) notesPages = hasSpeakerNotes(format, report);
      }
      let laidOut = bytes;
      if (hasTrackedChanges(format)) {
        const accept =
          deps.acceptChanges ?? ((b, f) => Promise.resolve(acceptTrackedChanges(b, f)));
        const accepted = await accept(new Uint8Array(bytes), format);
        if (accepted.changes > 0) {
          laidOut = accepted.bytes;
          revisions = { message: changesAcceptedMessage(accepted.changes) };
        }
      }
      return deps.converter.convertToPdf(laidOut, format, { signal, notesPages });
    });
    return { pdf, notesPages, ...(revisions ? { revisions } : {}) };
  };
  return { convertDocumentBytes };
}

/**
 * What a converted document reads as: its PDF's reading (`read`, as a `pdf` source is read),
 * with the warning that tracked changes were accepted.
 */
export async function readConverted(
  converted: ConvertedPdf,
  read: (pdf: Buffer, converted: { notesPages: boolean }) => Promise<PreparedSource>,
): Promise<PreparedSource> {
  const source = await read(converted.pdf, { notesPages: converted.notesPages });
  // Set on the object itself: its page bytes for previews are kept by its identity.
  if (converted.revisions) source.revisions = converted.revisions;
  return source;
}
