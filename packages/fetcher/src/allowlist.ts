import ipaddr from 'ipaddr.js';
import { parseIp } from './classify.ts';

type Entry =
  | { kind: 'host'; host: string; port: number | undefined }
  | { kind: 'cidr'; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

/** Places exempt from the public-address rule (`SOURCE_ALLOWLIST`); empty by default. */
export interface Allowlist {
  readonly entries: readonly Entry[];
}

export const EMPTY_ALLOWLIST: Allowlist = { entries: [] };

/** Lower-cases, strips IPv6 brackets and a trailing root dot, and canonicalises IP literals. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  const ip = parseIp(h);
  return ip ? ip.toString() : h;
}

function parsePort(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) {
    throw new Error(`SOURCE_ALLOWLIST entry "${entry}" has an invalid port`);
  }
  return port;
}

function parseEntry(raw: string): Entry {
  if (raw.includes('/')) {
    if (!ipaddr.isValidCIDR(raw)) throw new Error(`SOURCE_ALLOWLIST entry "${raw}" is not a CIDR`);
    return { kind: 'cidr', range: ipaddr.parseCIDR(raw) };
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (bracketed) {
    const host = bracketed[1] ?? '';
    if (parseIp(host) === null) throw new Error(`SOURCE_ALLOWLIST entry "${raw}" is not IPv6`);
    const port = bracketed[2];
    return {
      kind: 'host',
      host: normalizeHost(host),
      port: port ? parsePort(port, raw) : undefined,
    };
  }
  // A bare IPv6 address has several colons and no port; `host:port` has exactly one.
  if (parseIp(raw) !== null) return { kind: 'host', host: normalizeHost(raw), port: undefined };
  const colon = raw.lastIndexOf(':');
  if (colon > 0 && raw.indexOf(':') === colon) {
    return {
      kind: 'host',
      host: normalizeHost(raw.slice(0, colon)),
      port: parsePort(raw.slice(colon + 1), raw),
    };
  }
  if (!/^[a-z0-9.-]+$/i.test(raw)) throw new Error(`SOURCE_ALLOWLIST entry "${raw}" is not a host`);
  return { kind: 'host', host: normalizeHost(raw), port: undefined };
}

/**
 * Parses `SOURCE_ALLOWLIST`: comma-separated `host`, `host:port`, `[v6]:port` or CIDR entries.
 * Throws on a malformed entry so a typo fails start-up instead of silently allowing nothing.
 */
export function parseAllowlist(spec: string): Allowlist {
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map(parseEntry);
  return { entries };
}

export interface AllowlistTarget {
  /** Host as written in the URL (name or literal). */
  host: string;
  port: number;
  /** Resolved address about to be connected to, when known. */
  address?: string;
}

/**
 * True when an entry names this place. A host entry matches the URL host or the resolved
 * address (so `127.0.0.1:4000` also covers a name resolving there); a CIDR matches the resolved
 * address, or the URL host when it is a literal.
 */
export function isAllowlisted(allowlist: Allowlist, target: AllowlistTarget): boolean {
  if (allowlist.entries.length === 0) return false;
  const host = normalizeHost(target.host);
  const address = target.address === undefined ? undefined : normalizeHost(target.address);
  const ip = parseIp(address ?? host);
  return allowlist.entries.some((entry) => {
    if (entry.kind === 'cidr') {
      if (ip === null) return false;
      const [net] = entry.range;
      if (ip.kind() === net.kind()) return ip.match(entry.range);
      // An IPv4-mapped IPv6 address is the IPv4 address for matching purposes.
      if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) {
        return ip.toIPv4Address().match(entry.range);
      }
      return false;
    }
    if (entry.port !== undefined && entry.port !== target.port) return false;
    return entry.host === host || (address !== undefined && entry.host === address);
  });
}
