import {
  acceptsFormat,
  ExtractionFailure,
  FORMATS,
  SOURCE_KINDS,
  type FormatName,
  type SourceType,
} from '@xt/contract';
import { detectFormat } from '@xt/formats';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.ts';

export interface FetchedSource {
  bytes: Buffer;
  /** Decided by the bytes (@xt/formats); the server's header is only reported. */
  format: FormatName;
  /** The format's content type. */
  contentType: string;
  headerContentType: string | null;
  finalUrl: string;
}

/** The kind's own formats first, anything else accepted (and then judged by its bytes). */
function acceptHeader(type: SourceType): string {
  const mimes = new Set(SOURCE_KINDS[type].formats.map((f) => FORMATS[f].mime));
  return [...mimes, '*/*;q=0.1'].join(',');
}

/**
 * Fetches a file source (`pdf`, `image`, `document`, ...) and insists the bytes are a format
 * its kind reads (docs/sources.md). The caller passes the kind's cap in `maxBytes`
 * (docs/api.md#limits: 50 MiB for PDFs, 20 MiB for images by default).
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
  // The path's name, or a spreadsheet being asked for, only chooses among text formats: rows of
  // unequal length are a table then.
  const detected = await detectFormat(
    { bytes: res.body },
    { name: new URL(res.finalUrl).pathname, table: type === 'spreadsheet' },
  );
  if (!detected.format || !acceptsFormat(type, detected.format)) {
    const found = detected.format ? FORMATS[detected.format].mime : detected.found;
    const declared = res.headerContentType ? ` (served as ${res.headerContentType})` : '';
    throw new ExtractionFailure(
      !detected.format && detected.damaged ? 'SOURCE_UNREADABLE' : 'SOURCE_UNSUPPORTED',
      `Expected ${SOURCE_KINDS[type].noun} at ${res.finalUrl} but the content is ${found}${declared}.`,
    );
  }
  return {
    bytes: res.body,
    format: detected.format,
    contentType: FORMATS[detected.format].mime,
    headerContentType: res.headerContentType,
    finalUrl: res.finalUrl,
  };
}
