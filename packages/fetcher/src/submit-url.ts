import { classifyIp, parseIp } from './classify.ts';
import { EMPTY_ALLOWLIST, isAllowlisted, normalizeHost, type Allowlist } from './allowlist.ts';
import { isLocalhostName, LOCALHOST_ADDRESS } from './resolve.ts';

export const MAX_URL_LENGTH = 2048;

/**
 * Names that by convention resolve inside the host or the local network (RFC 6761 `localhost`,
 * mDNS `.local`, ICANN's private-use `.internal`, RFC 8375 `home.arpa`). Refusing them at
 * submit time gives the client an immediate 422 instead of a failed extraction later; any other
 * name is judged by its DNS answer at fetch time.
 */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];

function isLocalName(host: string): boolean {
  return LOCAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

export function defaultPort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Submit-time check of a `source` URL (docs/api.md#create-an-extraction). Returns the message for the 422 entry on
 * `source`, or null when the URL may be queued. WHATWG parsing has already turned every IPv4
 * spelling (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`, short `127.1`) and every
 * IPv6 spelling into canonical form, so one classifier covers them all.
 */
export function checkSubmittedUrl(
  raw: string,
  allowlist: Allowlist = EMPTY_ALLOWLIST,
  /** The setting that would allow a non-public place, named in the refusal. */
  setting = 'SOURCE_ALLOWLIST',
): string | null {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return 'must be an absolute http or https URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  const host = normalizeHost(url.hostname);
  if (host === '') return 'must name a host';
  const port = defaultPort(url);
  if (isAllowlisted(allowlist, { host, port })) return null;
  if (isLocalhostName(host) && isAllowlisted(allowlist, { host, port, address: LOCALHOST_ADDRESS }))
    return null;
  // A client who runs the service can allow the place; one who does not learns it is policy.
  const unless = `, unless the service's ${setting} names it`;
  if (parseIp(host) !== null) {
    const verdict = classifyIp(host);
    return verdict.public
      ? null
      : `must not point to a non-public address (${verdict.reason})${unless}`;
  }
  if (isLocalName(host)) return `must not point to a local host name (${host})${unless}`;
  return null;
}
