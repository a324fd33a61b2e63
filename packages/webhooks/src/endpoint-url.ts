import { ExtractionFailure } from '@xt/contract';
import {
  checkSubmittedUrl,
  defaultPort,
  normalizeHost,
  resolveAndCheck,
  type Allowlist,
  type LookupAll,
} from '@xt/fetcher';

/**
 * An endpoint URL is held to the rules of a source URL, and more: it is resolved now, so a
 * host that points inside the network is refused at once (422) instead of failing every
 * delivery later. Delivery checks it again on every attempt, since DNS answers change.
 * Returns the message for the 422 entry on `url`, or null. A DNS server that is only
 * temporarily failing is the service's problem, not the client's: that retryable
 * ExtractionFailure is rethrown for the caller to answer 503.
 */
export async function checkEndpointUrl(
  raw: string,
  allowlist: Allowlist,
  opts: { lookup?: LookupAll } = {},
): Promise<string | null> {
  const problem = checkSubmittedUrl(raw, allowlist, 'WEBHOOK_ALLOWLIST');
  if (problem) return `url ${problem}`;
  const url = new URL(raw);
  try {
    await resolveAndCheck(normalizeHost(url.hostname), defaultPort(url), allowlist, opts);
    return null;
  } catch (err) {
    if (!(err instanceof ExtractionFailure)) throw err;
    if (err.code === 'SOURCE_FORBIDDEN')
      return `url must not point to a non-public address (${err.message})`;
    if (err.retryable) throw err;
    return `url host could not be resolved (${url.hostname})`;
  }
}
