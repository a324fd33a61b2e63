import type { FormatName } from '@xt/contract';

/** The formats a `document` source converts, and which LibreOffice application lays each out. */
export const DOCUMENT_APPS = {
  docx: 'writer',
  doc: 'writer',
  odt: 'writer',
  rtf: 'writer',
  pptx: 'impress',
  ppt: 'impress',
  odp: 'impress',
} as const satisfies Partial<Record<FormatName, 'writer' | 'impress'>>;

export type DocumentFormat = keyof typeof DOCUMENT_APPS;

export function isDocumentFormat(format: FormatName): format is DocumentFormat {
  return Object.hasOwn(DOCUMENT_APPS, format);
}

const yes = { type: 'boolean', value: 'true' };
const no = { type: 'boolean', value: 'false' };

/**
 * The `--convert-to` target: PDF through the application's own export filter, with what a plain
 * export leaves out turned on. Comments become PDF annotations on the page of their anchor
 * (`ExportNotes`), which the PDF reader then reads with the page. A presentation also exports a
 * notes page per slide after all the slides (`ExportNotesPages`), hidden slides included
 * (`ExportHiddenSlides`) so that page k is always slide k and its notes page is the slide count
 * plus k. Laying out the notes pages about doubles the conversion's time, so a presentation
 * known to have no speaker notes (`notesPages: false`) is exported without them: its PDF is
 * then its slides alone.
 *
 * Images go into the PDF as the document holds them (`ReduceImageResolution` off): the filter's
 * default resamples every image to 300 DPI again on every page it is drawn on, so a picture on
 * a slide master was scaled once per slide and notes page. That was most of a real 46-slide
 * deck's conversion (10 slides: 8.0 s of CPU against 2.4 s without it), and the service renders
 * pages at no more than 300 DPI (OCR at 200) itself.
 */
export function pdfExportTarget(format: DocumentFormat, notesPages = true): string {
  const app = DOCUMENT_APPS[format];
  const data =
    app === 'impress'
      ? notesPages
        ? { ExportNotes: yes, ExportNotesPages: yes, ExportHiddenSlides: yes }
        : { ExportNotes: yes, ExportHiddenSlides: yes }
      : { ExportNotes: yes };
  return `pdf:${app}_pdf_Export:${JSON.stringify({ ...data, ReduceImageResolution: no })}`;
}
