import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type IpClass = { public: true } | { public: false; reason: string };

type Range = readonly [cidr: string, reason: string];

/** IANA special-purpose IPv4 blocks that must never be reached from a fetch. */
const V4_RANGES: readonly Range[] = [
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
  ['255.255.255.255/32', 'broadcast'],
];

/**
 * IPv6 blocks refused outright. Order matters: the first match names the reason, so narrow
 * blocks come before the wide ones that contain them. Mapped and NAT64 forms are handled
 * before this list because their verdict depends on the embedded IPv4 address.
 */
const V6_RANGES: readonly Range[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'IPv4-compatible (deprecated)'],
  ['::ffff:0:0:0/96', 'IPv4-translated'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001::/32', 'Teredo'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:10::/28', 'ORCHID (deprecated)'],
  ['2001:20::/28', 'ORCHIDv2'],
  // The rest of 2001::/23 holds protocol infrastructure (AMT, AS112, drone IDs), never web hosts.
  ['2001::/23', 'IETF protocol assignments'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4 (may tunnel to any IPv4 address)'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing SIDs'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
];

/** Only 2000::/3 is allocated as global unicast; anything else is reserved by IANA. */
const V6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const V6_MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');
const V6_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const PARSED_V4 = V4_RANGES.map(([cidr, reason]) => [ipaddr.IPv4.parseCIDR(cidr), reason] as const);
const PARSED_V6 = V6_RANGES.map(([cidr, reason]) => [ipaddr.IPv6.parseCIDR(cidr), reason] as const);

function classifyV4(ip: ipaddr.IPv4): IpClass {
  for (const [range, reason] of PARSED_V4) {
    if (ip.match(range)) return { public: false, reason: `${reason} address ${ip.toString()}` };
  }
  return { public: true };
}

function embeddedV4(ip: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = ip.toByteArray().slice(12);
  return new ipaddr.IPv4(bytes);
}

function classifyV6(ip: ipaddr.IPv6): IpClass {
  // A mapped or well-known-prefix NAT64 address reaches exactly its embedded IPv4 address.
  if (ip.match(V6_MAPPED) || ip.match(V6_NAT64)) {
    const inner = classifyV4(embeddedV4(ip));
    if (inner.public) return inner;
    return { public: false, reason: `IPv6 ${ip.toString()} embeds ${inner.reason}` };
  }
  for (const [range, reason] of PARSED_V6) {
    if (ip.match(range)) return { public: false, reason: `${reason} address ${ip.toString()}` };
  }
  if (!ip.match(V6_GLOBAL_UNICAST)) {
    return { public: false, reason: `reserved address ${ip.toString()}` };
  }
  return { public: true };
}

/**
 * Decides whether an address in canonical notation (as DNS or `new URL` yields it) is on the
 * public internet. Anything else, including non-canonical IPv4 such as `0x7f.1`, is refused:
 * when the notation is in doubt, so is the destination.
 */
export function classifyIp(address: string): IpClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return { public: false, reason: `not an IP address: ${address}` };
  if (bare.includes('%')) return { public: false, reason: `scoped address ${address}` };
  if (family === 4) return classifyV4(ipaddr.IPv4.parse(bare));
  return classifyV6(ipaddr.IPv6.parse(bare));
}

/** Parses an address for range matching; `null` when it is not a canonical IP literal. */
export function parseIp(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIP(bare) === 0) return null;
  return ipaddr.parse(bare);
}
