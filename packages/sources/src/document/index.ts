export {
  createDocumentConverter,
  DEFAULT_SOFFICE,
  type DocumentConverter,
  type DocumentConverterOptions,
} from './converter/converter.ts';
export type { ConverterIsolation } from './converter/sandbox.ts';
export { DOCUMENT_APPS, isDocumentFormat, type DocumentFormat } from './export-filter.ts';
export {
  createDocumentReader,
  readConverted,
  type DocumentReader,
  type DocumentReaderDeps,
} from './prepare-document.ts';
