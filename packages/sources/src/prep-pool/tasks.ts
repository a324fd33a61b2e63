import type { FormatName, PreparedSource } from '@xt/contract';
import type { AcceptedChanges } from '../document/accept-changes.ts';
import type { PagePreview, PreviewTask } from '../previews/render.ts';
import type { ImageOptions } from '../image/prepare-image.ts';
import type { PdfOptions, PreparedPdf } from '../pdf/prepare-pdf.ts';
import type { CutOptions } from '../pdf/cut-pdf.ts';
import type { ReadMessage } from '../email/message.ts';
import type {
  SpreadsheetOptions,
  SpreadsheetResult,
  ThreadFormat,
} from '../spreadsheet/prepare-spreadsheet.ts';

/** CPU-heavy preparation work the pool runs off the main event loop. */
export type ImageTask = { kind: 'image'; bytes: Uint8Array; opts: ImageOptions };
export type PdfTask = { kind: 'pdf'; bytes: Uint8Array; opts: PdfOptions };
/** A long PDF's page windows, each written into a PDF of its own. */
export type CutPdfTask = { kind: 'pdf-cut'; bytes: Uint8Array; opts: CutOptions };
/**
 * A text source, as UTF-8 bytes (typed in or uploaded): decoded, HTML read as Markdown, cut into
 * paragraphs. `contentType` is the upload's (`text/html` is converted), null for typed text.
 */
export type TextTask = {
  kind: 'text';
  bytes: Uint8Array;
  contentType: string | null;
  /** keep the text to locate values in (docs/citations.md) */
  citations?: boolean | undefined;
  /** Markdown whose YAML front matter is its metadata (the `markdown` kind, read-markdown.ts) */
  frontMatter?: boolean | undefined;
};
/**
 * A message file (`.eml` or `.msg`): its headers, body (HTML read as Markdown) and attachments,
 * with attached messages read in turn. Its attachments are prepared afterwards by their kinds.
 */
export type EmailTask = {
  kind: 'email';
  bytes: Uint8Array;
  format: 'eml' | 'msg';
  /** MIME parts and attachments of the whole message, nested ones included. */
  maxParts: number;
};
/** A spreadsheet (XLSX, CSV or TSV): bounds checked, cells read and displayed, sheets as tables. */
export type SpreadsheetTask = {
  kind: 'spreadsheet';
  bytes: Uint8Array;
  format: ThreadFormat;
  opts: SpreadsheetOptions;
};
/** A DOCX or ODT with its tracked changes accepted (accept-changes.ts): XML rewritten off the loop. */
export type AcceptChangesTask = { kind: 'accept-changes'; bytes: Uint8Array; format: FormatName };
export type { PreviewTask } from '../previews/render.ts';
export type PrepTask =
  | ImageTask
  | PdfTask
  | CutPdfTask
  | TextTask
  | EmailTask
  | SpreadsheetTask
  | PreviewTask
  | AcceptChangesTask;

export type PrepResult<T extends PrepTask> = T extends PdfTask
  ? PreparedPdf
  : T extends CutPdfTask
    ? Uint8Array[]
    : T extends PreviewTask
      ? PagePreview[]
      : T extends EmailTask
        ? ReadMessage
        : T extends SpreadsheetTask
          ? SpreadsheetResult
          : T extends AcceptChangesTask
            ? AcceptedChanges
            : PreparedSource;

/** What a task answers, whichever it is: the pool and its processes name it alike. */
export type TaskResult =
  | PreparedSource
  | PreparedPdf
  | Uint8Array[]
  | ReadMessage
  | PagePreview[]
  | SpreadsheetResult
  | AcceptedChanges;

/** pool → process; `warm` only waits for the process to have loaded its modules. */
export interface PrepRequest {
  id: number;
  task: PrepTask | 'warm';
}

/** process → pool: failures travel as plain data so their contract code survives the hop. */
export type PrepResponse =
  | { id: number; ok: true; result: TaskResult }
  | { id: number; ok: false; error: { code: string; message: string; retryable: boolean } };
