import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ExtractionFailure } from '@xt/contract';
import { classifyIp } from './classify.ts';
import { isAllowlisted, type Allowlist } from './allowlist.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Same shape as `dns.promises.lookup(host, { all: true })`; injectable for tests. */
export type LookupAll = (host: string) => Promise<ResolvedAddress[]>;

export const systemLookup: LookupAll = async (host) => {
  const found = await dnsLookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * `localhost` and names under it (RFC 6761) are the loopback address 127.0.0.1, asked of no
 * resolver: a resolver may add `::1`, which an allow-list entry `127.0.0.1:port` does not name,
 * and a client that wrote `localhost` meant the same place as one that wrote 127.0.0.1.
 */
export const LOCALHOST_ADDRESS = '127.0.0.1';

export function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** DNS answers that may change on a retry, as opposed to a definite "no such name". */
const TRANSIENT_DNS = new Set(['EAI_AGAIN', 'ETIMEOUT', 'ESERVFAIL', 'ECONNREFUSED', 'EAI_FAIL']);

function dnsFailure(host: string, err: unknown): ExtractionFailure {
  const code = (err as { code?: unknown } | null)?.code;
  const transient = typeof code === 'string' && TRANSIENT_DNS.has(code);
  return new ExtractionFailure(
    'SOURCE_UNREACHABLE',
    `The host ${host} could not be resolved${typeof code === 'string' ? ` (${code})` : ''}.`,
    { retryable: transient, cause: err },
  );
}

/**
 * Resolves a host once and decides whether it may be contacted. Every resolved address must be
 * public (or allow-listed): refusing when any is private stops a name that mixes a public and a
 * private answer from reaching the private one on a later connection attempt. The returned
 * address is the one to connect to, so no second lookup can be rebound.
 */
export async function resolveAndCheck(
  host: string,
  port: number,
  allowlist: Allowlist,
  opts: { lookup?: LookupAll } = {},
): Promise<ResolvedAddress> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const literal = isIP(bare);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: bare, family: literal === 6 ? 6 : 4 }];
  } else if (isLocalhostName(bare.toLowerCase().replace(/\.$/, ''))) {
    addresses = [{ address: LOCALHOST_ADDRESS, family: 4 }];
  } else {
    try {
      addresses = await (opts.lookup ?? systemLookup)(bare);
    } catch (err) {
      throw dnsFailure(bare, err);
    }
    if (addresses.length === 0) throw dnsFailure(bare, null);
  }
  for (const { address } of addresses) {
    const verdict = classifyIp(address);
    if (verdict.public) continue;
    if (isAllowlisted(allowlist, { host: bare, port, address })) continue;
    // A literal address is the client's own; what a name resolved to is the service's network,
    // which a message (shown to the client, stored on the extraction) must not map out.
    throw new ExtractionFailure(
      'SOURCE_FORBIDDEN',
      literal !== 0
        ? `The host ${bare} is a non-public address (${verdict.reason}).`
        : `The host ${bare} resolves to a non-public address.`,
    );
  }
  const first = addresses[0];
  if (first === undefined) throw dnsFailure(bare, null);
  return first;
}
