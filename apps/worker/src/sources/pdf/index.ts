export { preparePdf, type PdfMode, type PdfOptions, type PreparedPdf } from './prepare-pdf.ts';
export { assessText, isUsableText, type TextQuality } from './usable-text.ts';
export { linesInReadingOrder, type PlacedText } from './text-layer.ts';
export { renderSize } from './render-page.ts';
