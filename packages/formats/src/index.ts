/**
 * What a file is, from its bytes alone: the one place the service recognises formats, for the
 * API's upload check, the fetcher's download check and the worker's `auto` kind
 * (docs/sources.md).
 */
export { detectFormat, type Detection, type DetectOptions, type FileInput } from './detect.ts';
export { isImageType, sniffContentType, type SniffedType } from './sniff.ts';
export { csvDelimiter } from './text.ts';
export { xlsIsEncrypted } from './compound.ts';
export { compoundFileProblem } from './compound-bounds.ts';
export { isPasswordProtected } from './protection.ts';
