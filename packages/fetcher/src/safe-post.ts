import { ExtractionFailure } from '@xt/contract';
import { request } from 'undici';
import type { Allowlist } from './allowlist.ts';
import { toFetchFailure } from './errors.ts';
import { createPinnedDispatcher } from './pinned-dispatcher.ts';
import type { LookupAll } from './resolve.ts';

export interface SafePostOptions {
  allowlist: Allowlist;
  body: string;
  headers: Record<string, string>;
  /** Budget for the whole exchange: connecting, sending, and the answer's status line. */
  timeoutMs: number;
  /** Stand-in for DNS, for tests. */
  lookup?: LookupAll;
}

/**
 * POSTs to a client-supplied URL (a webhook endpoint) under the same address rules as every
 * source fetch: the host is resolved, checked and pinned for each new connection, with a fresh
 * connection per call, so a name that has since moved to a private address is refused. Redirects
 * are not followed: the answer's status is the outcome. The answer's body is not read.
 * Throws an ExtractionFailure (`SOURCE_FORBIDDEN`, `SOURCE_UNREACHABLE`, `TIMEOUT`).
 */
export async function safePost(url: string, opts: SafePostOptions): Promise<{ status: number }> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new ExtractionFailure('SOURCE_FORBIDDEN', `Only http and https URLs are called.`);
  if (target.username !== '' || target.password !== '')
    throw new ExtractionFailure('SOURCE_FORBIDDEN', 'URLs with credentials are not called.');
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const dispatcher = createPinnedDispatcher(opts.allowlist, {
    connectTimeoutMs: opts.timeoutMs,
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  try {
    const res = await request(target, {
      dispatcher,
      method: 'POST',
      headers: opts.headers,
      body: opts.body,
      signal,
    });
    res.body.on('error', () => {});
    res.body.destroy();
    return { status: res.statusCode };
  } catch (err) {
    if (signal.aborted)
      throw new ExtractionFailure('TIMEOUT', `No answer within ${opts.timeoutMs} ms.`, {
        retryable: true,
        cause: err,
      });
    throw toFetchFailure(err, url);
  } finally {
    dispatcher.destroy().catch(() => {});
  }
}
