import { ExtractionFailure } from '@xt/contract';
import { request, type Dispatcher } from 'undici';
import type { Allowlist } from './allowlist.ts';
import { statusFailure, toFetchFailure } from './errors.ts';
import { createPinnedDispatcher } from './pinned-dispatcher.ts';
import type { LookupAll } from './resolve.ts';

export const DEFAULT_MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface SafeFetchOptions {
  allowlist: Allowlist;
  /** Largest body accepted, in bytes; larger declared or streamed bodies fail the fetch. */
  maxBytes: number;
  /** Budget for the whole fetch, redirects and body included. */
  timeoutMs: number;
  connectTimeoutMs?: number;
  maxRedirects?: number;
  accept?: string;
  userAgent?: string;
  /** Cancels the fetch; its reason is rethrown as is. */
  signal?: AbortSignal;
  /** A shared pinned Agent (from createPinnedDispatcher); one is made per call otherwise. */
  dispatcher?: Dispatcher;
  /** Stand-in for DNS, for tests; ignored when `dispatcher` is given. */
  lookup?: LookupAll;
}

export interface SafeFetchResult {
  finalUrl: string;
  status: number;
  headerContentType: string | null;
  body: Buffer;
  /** Every URL redirected to, in order; the last one equals `finalUrl`. */
  redirects: string[];
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

/** A hop target must be plain http(s) without credentials, whether submitted or redirected to. */
function hopUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = base ? new URL(raw, base) : new URL(raw);
  } catch (err) {
    throw new ExtractionFailure('SOURCE_UNREACHABLE', `Not a valid URL: ${raw}`, { cause: err });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ExtractionFailure(
      'SOURCE_FORBIDDEN',
      `Only http and https URLs are fetched, not ${url.protocol} (${url.href}).`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ExtractionFailure('SOURCE_FORBIDDEN', 'URLs with credentials are not fetched.');
  }
  url.hash = '';
  return url;
}

function tooLarge(maxBytes: number, url: string): ExtractionFailure {
  return new ExtractionFailure(
    'SOURCE_TOO_LARGE',
    `The source at ${url} is larger than the limit of ${maxBytes} bytes.`,
  );
}

/**
 * Aborts a response body we will not read. undici reports a destroyed unread body as an
 * 'error' event; with nobody listening that would crash the process, and here it is expected.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * undici leaves a request whose connection is still being set up pending even after its
 * signal aborts, so the deadline is enforced here as well.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function readCapped(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  url: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      // Stop the transfer now rather than downloading the rest only to throw it away.
      discard(body);
      throw tooLarge(maxBytes, url);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

async function fetchHops(
  start: URL,
  opts: SafeFetchOptions,
  dispatcher: Dispatcher,
  signal: AbortSignal,
): Promise<SafeFetchResult> {
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const redirects: string[] = [];
  const headers: Record<string, string> = {
    accept: opts.accept ?? '*/*',
    // No compression: the byte cap must count what is stored, and a small gzip can inflate hugely.
    'accept-encoding': 'identity',
  };
  if (opts.userAgent) headers['user-agent'] = opts.userAgent;
  let current = start;
  for (;;) {
    const pending = request(current, { dispatcher, method: 'GET', headers, signal });
    // If the deadline wins the race, an answer arriving later must not hold its connection open.
    pending.then(
      (late) => signal.aborted && discard(late.body),
      () => {},
    );
    const res = await untilAborted(pending, signal);
    const location = headerValue(res.headers.location);
    if (REDIRECT_STATUSES.has(res.statusCode) && location !== null) {
      await res.body.dump();
      if (redirects.length >= maxRedirects) {
        throw new ExtractionFailure(
          'SOURCE_UNREACHABLE',
          `More than ${maxRedirects} redirects, starting at ${start.href}.`,
        );
      }
      current = hopUrl(location, current);
      redirects.push(current.href);
      continue;
    }
    if (res.statusCode < 200 || res.statusCode > 299) {
      await res.body.dump();
      throw statusFailure(res.statusCode, current.href);
    }
    const declared = Number(headerValue(res.headers['content-length']) ?? NaN);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      discard(res.body);
      throw tooLarge(opts.maxBytes, current.href);
    }
    const body = await readCapped(res.body, opts.maxBytes, current.href);
    return {
      finalUrl: current.href,
      status: res.statusCode,
      headerContentType: headerValue(res.headers['content-type']),
      body,
      redirects,
    };
  }
}

/**
 * GETs a URL under the SSRF rules of docs/api.md#fetching-sources: every connection (first URL and each redirect
 * hop) is resolved, checked and pinned by the dispatcher; redirects are followed here, by hand,
 * so each target is validated; the body is capped while it streams; one deadline covers it all.
 */
export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  const start = hopUrl(url);
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const owned = opts.dispatcher === undefined;
  const dispatcher =
    opts.dispatcher ??
    createPinnedDispatcher(opts.allowlist, {
      ...(opts.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: opts.connectTimeoutMs }),
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
    });
  try {
    return await fetchHops(start, opts, dispatcher, signal);
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (err instanceof ExtractionFailure) throw err;
    if (deadline.aborted) {
      throw new ExtractionFailure(
        'TIMEOUT',
        `Fetching ${url} took longer than ${opts.timeoutMs} ms.`,
        {
          retryable: true,
          cause: err,
        },
      );
    }
    throw toFetchFailure(err, url);
  } finally {
    // Not awaited: a connection attempt still resolving would keep destroy() pending until the
    // connector gives up, and the caller already has its answer.
    if (owned) dispatcher.destroy().catch(() => {});
  }
}
