// Written from the service's registry of source kinds (packages/contract/src/source-kinds.ts) by
// `npm run kinds:copies`: edit the registry, not this file (scripts/kinds/copies.test.ts).

/** Every `type` the service takes, in the service's order. */
export const SOURCE_TYPES = [
  'text',
  'image',
  'pdf',
  'webpage',
  'document',
  'spreadsheet',
  'email',
  'markdown',
  'auto',
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** What a single record shows as `source.type` (webpages are `url` there). */
export type RecordSourceType =
  'text' | 'image' | 'pdf' | 'url' | 'document' | 'spreadsheet' | 'email' | 'markdown' | 'auto';

/** The types whose `source` may be a URL; a URL of any other file is fetched as a webpage. */
export const URL_TYPES = [
  'image',
  'pdf',
  'webpage',
  'document',
  'spreadsheet',
  'email',
  'auto',
] as const satisfies readonly SourceType[];

/** A file source's format, recognised by the service from its content (docs/sources.md). */
export type SourceFormat =
  | 'pdf'
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'tiff'
  | 'bmp'
  | 'avif'
  | 'heic'
  | 'txt'
  | 'md'
  | 'csv'
  | 'tsv'
  | 'json'
  | 'html'
  | 'docx'
  | 'doc'
  | 'odt'
  | 'rtf'
  | 'pptx'
  | 'ppt'
  | 'odp'
  | 'xlsx'
  | 'xls'
  | 'ods'
  | 'eml'
  | 'msg'
  | 'office-encrypted';

/**
 * The type to send a file of each usual extension as: the kind the service's `auto` would read
 * it as (a CSV file as a spreadsheet, its cells cited).
 */
export const BY_EXTENSION: Readonly<Record<string, SourceType>> = {
  '.pdf': 'pdf',
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.gif': 'image',
  '.webp': 'image',
  '.tif': 'image',
  '.tiff': 'image',
  '.bmp': 'image',
  '.avif': 'image',
  '.heic': 'image',
  '.heif': 'image',
  '.txt': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.csv': 'spreadsheet',
  '.tsv': 'spreadsheet',
  '.tab': 'spreadsheet',
  '.json': 'text',
  '.html': 'text',
  '.htm': 'text',
  '.docx': 'document',
  '.docm': 'document',
  '.dotx': 'document',
  '.doc': 'document',
  '.dot': 'document',
  '.odt': 'document',
  '.rtf': 'document',
  '.pptx': 'document',
  '.pptm': 'document',
  '.ppsx': 'document',
  '.ppt': 'document',
  '.pps': 'document',
  '.odp': 'document',
  '.xlsx': 'spreadsheet',
  '.xlsm': 'spreadsheet',
  '.xls': 'spreadsheet',
  '.ods': 'spreadsheet',
  '.eml': 'email',
  '.msg': 'email',
};
