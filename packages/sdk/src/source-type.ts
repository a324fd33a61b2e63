import path from 'node:path';
import {
  BY_EXTENSION,
  SOURCE_TYPES,
  URL_TYPES,
  type SourceType,
} from './source-kinds.generated.ts';

/*
 * What the SDK knows of the service's registry of source kinds (docs/sources.md): the published
 * SDK carries no dependency on the service's own packages, so the lists are a file written from
 * the registry (source-kinds.generated.ts, `npm run kinds:copies`), and the service's tests hold
 * what is guessed from them to it (apps/api/src/sdk/contract-types.test.ts).
 */

export { SOURCE_TYPES, URL_TYPES };

/** The file extensions a type is guessed from, in the registry's order (the formats'). */
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
