import { BlockList, isIP } from 'node:net';

// BlockList also matches IPv4-mapped IPv6 forms (::ffff:127.0.0.1) against the IPv4 range.
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a host (a name, an address, or a URL's `[v6]` form) is this machine's loopback
 * interface: `localhost`, 127.0.0.0/8 or ::1. Names other than `localhost` are not resolved:
 * whoever controls their DNS could point them anywhere.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}
