import { ExtractionFailure } from '@xt/contract';
import { normalizeHost } from '@xt/fetcher';
import type { ProxyRefusal } from '../egress/index.ts';

/** Content types rendered as pages; anything else belongs to another source type or none. */
const PAGE_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain)\b/i;

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The refusal the proxy recorded for this URL's host, if the proxy turned it down. */
export function refusalFor(
  url: string,
  refusals: readonly ProxyRefusal[],
): ProxyRefusal | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = normalizeHost(parsed.hostname);
  const port = portOf(parsed);
  return refusals.findLast((r) => normalizeHost(r.host) === host && r.port === port);
}

export function refusalFailure(refusal: ProxyRefusal): ExtractionFailure {
  return new ExtractionFailure(refusal.code, refusal.message, { retryable: refusal.retryable });
}

/** Maps the main document's final HTTP status to a failure; null for a usable 2xx/3xx page. */
export function statusFailure(status: number, url: string): ExtractionFailure | null {
  if (status < 400) return null;
  const what = `The page ${url} answered HTTP ${status}.`;
  if (status === 401 || status === 403) return new ExtractionFailure('SOURCE_FORBIDDEN', what);
  if (status === 429 || status >= 500)
    return new ExtractionFailure('SOURCE_UNREACHABLE', what, { retryable: true });
  return new ExtractionFailure('SOURCE_UNREACHABLE', what);
}

export function contentTypeFailure(contentType: string | undefined): ExtractionFailure | null {
  if (contentType === undefined || contentType.trim() === '' || PAGE_TYPES.test(contentType))
    return null;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  let hint = 'It is not a web page.';
  if (type === 'application/pdf') hint = 'Submit it with type "pdf".';
  else if (type.startsWith('image/')) hint = 'Submit it with type "image".';
  return new ExtractionFailure(
    'SOURCE_UNSUPPORTED',
    `The URL serves ${type}, not a web page. ${hint}`,
  );
}

/**
 * Maps a navigation that never committed. Refusals come first: a CONNECT the proxy refused
 * shows up in Chromium only as a tunnel failure, and the proxy knows why.
 */
export function navigationFailure(
  err: unknown,
  refusals: readonly ProxyRefusal[],
  timedOut: boolean,
): ExtractionFailure {
  const message = err instanceof Error ? err.message : String(err);
  const refusal = refusals.at(-1);
  if (refusal && !timedOut) return refusalFailure(refusal);
  if (timedOut) {
    return new ExtractionFailure('TIMEOUT', 'The page did not start loading before the deadline.', {
      retryable: true,
      cause: err,
    });
  }
  if (/Download is starting|ERR_ABORTED/i.test(message)) {
    return new ExtractionFailure(
      'SOURCE_UNSUPPORTED',
      'The URL serves a file download, not a web page. Submit PDFs with type "pdf" and images with type "image".',
      { cause: err },
    );
  }
  if (/ERR_TOO_MANY_REDIRECTS/i.test(message)) {
    return new ExtractionFailure('SOURCE_UNREACHABLE', 'The page redirects too many times.', {
      cause: err,
    });
  }
  if (/ERR_(CERT|SSL)_|ERR_BAD_SSL/i.test(message)) {
    return new ExtractionFailure(
      'SOURCE_UNREACHABLE',
      'The site presented an invalid TLS certificate.',
      { cause: err },
    );
  }
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1] ?? 'navigation failed';
  return new ExtractionFailure('SOURCE_UNREACHABLE', `The page could not be loaded (${code}).`, {
    retryable: true,
    cause: err,
  });
}
