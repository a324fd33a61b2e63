import {
  acceptsFormat,
  ExtractionFailure,
  FORMATS,
  formatOfMime,
  SOURCE_KINDS,
  type FormatName,
  type SourceType,
} from '@xt/contract';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.ts';
import { sniffContentType, type SniffedType } from './sniff.ts';

export interface FetchedSource {
  bytes: Buffer;
  /** Decided by the bytes; the server's header is only reported. */
  contentType: SniffedType;
  format: FormatName;
  headerContentType: string | null;
  finalUrl: string;
}

/** The kind's own formats first, anything else accepted (and then judged by its bytes). */
function acceptHeader(type: SourceType): string {
  const mimes = new Set(SOURCE_KINDS[type].formats.map((f) => FORMATS[f].mime));
  return [...mimes, '*/*;q=0.1'].join(',');
}

/**
 * Fetches a file source (`pdf`, `image`, ...) and insists the bytes are a format its kind reads
 * (docs/sources.md). The caller passes the per-kind cap in `maxBytes` (docs/api.md#limits: 50
 * MiB for PDFs, 20 MiB for images by default).
 */
export async function fetchSource(
  url: string,
  type: SourceType,
  opts: SafeFetchOptions,
): Promise<FetchedSource> {
  const res = await safeFetch(url, { accept: acceptHeader(type), ...opts });
  if (res.body.length === 0) {
    throw new ExtractionFailure('SOURCE_UNREADABLE', `The source at ${res.finalUrl} is empty.`);
  }
  const sniffed = sniffContentType(res.body);
  const format = sniffed ? formatOfMime(sniffed) : undefined;
  if (!sniffed || !format || !acceptsFormat(type, format)) {
    const found = sniffed ?? 'an unrecognised format';
    const declared = res.headerContentType ? ` (served as ${res.headerContentType})` : '';
    throw new ExtractionFailure(
      'SOURCE_UNSUPPORTED',
      `Expected ${SOURCE_KINDS[type].noun} at ${res.finalUrl} but the content is ${found}${declared}.`,
    );
  }
  return {
    bytes: res.body,
    contentType: sniffed,
    format,
    headerContentType: res.headerContentType,
    finalUrl: res.finalUrl,
  };
}
