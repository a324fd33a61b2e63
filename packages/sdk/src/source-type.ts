import path from 'node:path';
import type { SourceType } from './types.ts';

/*
 * The SDK's copy of the service's registry of source kinds (docs/sources.md): the published SDK
 * carries no dependency on the service's own packages, so it restates what it needs, and a test
 * of the service (apps/api/src/sdk/contract-types.test.ts) holds this copy to the registry.
 */

/** Every `type` the service takes, in the service's order. */
export const SOURCE_TYPES = [
  'text',
  'image',
  'pdf',
  'webpage',
  'document',
  'spreadsheet',
  'email',
  'auto',
] as const satisfies readonly SourceType[];

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

/**
 * The type to send a file of each usual extension as: the kind the service's `auto` would read
 * it as (a CSV file as a spreadsheet, its cells cited). The service still decides by the file's
 * content; this only chooses what to send for a file the caller did not label.
 */
const BY_EXTENSION: Record<string, SourceType> = {
  '.txt': 'text',
  '.md': 'text',
  '.markdown': 'text',
  '.csv': 'spreadsheet',
  '.json': 'text',
  '.html': 'text',
  '.htm': 'text',
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
  '.tsv': 'spreadsheet',
  '.tab': 'spreadsheet',
  '.eml': 'email',
  '.msg': 'email',
};

/** The file extensions a type is guessed from, in the registry's order. */
export const FILE_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION);

/**
 * The source type a file name or URL suggests: by its extension; any other URL is a webpage;
 * undefined for a file of another kind.
 */
export function sourceTypeFor(name: string, isUrl: boolean): SourceType | undefined {
  const ext = path.extname(isUrl ? new URL(name).pathname : name).toLowerCase();
  const byName = Object.hasOwn(BY_EXTENSION, ext) ? BY_EXTENSION[ext] : undefined;
  if (isUrl)
    return byName && (URL_TYPES as readonly string[]).includes(byName) ? byName : 'webpage';
  return byName;
}

/** The types a bundle (`split` on create, docs/split.md) may be sent as. */
export const SPLIT_TYPES = [
  'pdf',
  'image',
  'document',
  'auto',
] as const satisfies readonly SourceType[];
export type SplitSourceType = (typeof SPLIT_TYPES)[number];

/**
 * The type to send a bundle as: `pdf`, `image` or `document` when its name says so, else `auto`
 * for the service to recognise by its content (a URL without an extension, say, which
 * `sourceTypeFor` would take for a webpage, a kind no bundle can be).
 */
export function splitTypeFor(name: string, isUrl: boolean): SplitSourceType {
  const type = sourceTypeFor(name, isUrl);
  return (SPLIT_TYPES as readonly string[]).includes(type ?? '')
    ? (type as SplitSourceType)
    : 'auto';
}
