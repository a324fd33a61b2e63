export { preparePdf, type PdfMode, type PdfOptions, type PreparedPdf } from './prepare-pdf.ts';
export { assessText, isUsableText, type TextQuality } from './usable-text.ts';
export { linesInReadingOrder, type PlacedText } from './text-layer.ts';
export { renderPage, renderSize, type RenderedPage } from './render-page.ts';
export { openPdf, type OpenedPdf } from './open-pdf.ts';
