import { ExtractionFailure } from '@xt/contract';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.ts';
import { isImageType, sniffContentType, type SniffedType } from './sniff.ts';

export type BinarySourceKind = 'pdf' | 'image';

export interface FetchedSource {
  bytes: Buffer;
  /** Decided by the bytes; the server's header is only reported. */
  contentType: SniffedType;
  headerContentType: string | null;
  finalUrl: string;
}

const ACCEPT: Record<BinarySourceKind, string> = {
  pdf: 'application/pdf,*/*;q=0.1',
  image: 'image/*,*/*;q=0.1',
};

function matchesKind(kind: BinarySourceKind, type: SniffedType | null): type is SniffedType {
  return kind === 'pdf' ? type === 'application/pdf' : isImageType(type);
}

/**
 * Fetches a `pdf` or `image` source and insists the bytes are of that kind. The caller passes
 * the per-kind cap in `maxBytes` (docs/api.md#limits: 50 MiB for PDFs, 20 MiB for images by default).
 */
export async function fetchSource(
  url: string,
  kind: BinarySourceKind,
  opts: SafeFetchOptions,
): Promise<FetchedSource> {
  const res = await safeFetch(url, { accept: ACCEPT[kind], ...opts });
  if (res.body.length === 0) {
    throw new ExtractionFailure('SOURCE_UNREADABLE', `The source at ${res.finalUrl} is empty.`);
  }
  const sniffed = sniffContentType(res.body);
  if (!matchesKind(kind, sniffed)) {
    const found = sniffed ?? 'an unrecognised format';
    const declared = res.headerContentType ? ` (served as ${res.headerContentType})` : '';
    throw new ExtractionFailure(
      'SOURCE_UNSUPPORTED',
      `Expected ${kind === 'pdf' ? 'a PDF' : 'an image'} at ${res.finalUrl} but the content is ${found}${declared}.`,
    );
  }
  return {
    bytes: res.body,
    contentType: sniffed,
    headerContentType: res.headerContentType,
    finalUrl: res.finalUrl,
  };
}
