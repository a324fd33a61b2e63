export { ocrLines, linesFromTsv, type OcrOptions } from './tesseract.ts';
