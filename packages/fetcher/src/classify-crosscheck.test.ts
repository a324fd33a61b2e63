import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { classifyIp } from './classify.ts';

/**
 * A second opinion: ipaddr.js keeps its own table of IANA special-purpose ranges. Every address
 * it calls special must also be refused here, except the few whose verdict deliberately differs.
 */
type RangeTable = Record<
  string,
  [ipaddr.IPv4 | ipaddr.IPv6, number] | [ipaddr.IPv4 | ipaddr.IPv6, number][]
>;

/** Globally routed anycast services (AS112, AMT relays): real public hosts, not internal ones. */
const PUBLIC_BY_DESIGN = new Set(['as112', 'amt', 'as112v6']);
/** Judged by the embedded IPv4 address, so the verdict depends on the sample. */
const EMBEDDED = new Set(['ipv4Mapped', 'rfc6052']);

function specialRanges(proto: object): RangeTable {
  return (proto as { SpecialRanges: RangeTable }).SpecialRanges;
}

/** Deterministic pseudo-random bytes (xorshift), so failures reproduce. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) & 0xff;
  };
}

function sampleIn([net, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number], next: () => number): string {
  const bytes = net.toByteArray();
  const out = bytes.map((byte, i) => {
    const fixedBits = Math.max(0, Math.min(8, bits - i * 8));
    const mask = (0xff << (8 - fixedBits)) & 0xff;
    return (byte & mask) | (next() & ~mask & 0xff);
  });
  return ipaddr.fromByteArray(out).toString();
}

function samples(table: RangeTable, skip: Set<string>): [string, string][] {
  const next = rng(0x5eed);
  const out: [string, string][] = [];
  for (const [name, entry] of Object.entries(table)) {
    if (skip.has(name)) continue;
    const ranges = (Array.isArray(entry[0]) ? entry : [entry]) as [
      ipaddr.IPv4 | ipaddr.IPv6,
      number,
    ][];
    for (const range of ranges) {
      for (let i = 0; i < 20; i += 1) out.push([name, sampleIn(range, next)]);
    }
  }
  return out;
}

describe('classifyIp agrees with ipaddr.js on special-purpose ranges', () => {
  const skip = new Set([...PUBLIC_BY_DESIGN, ...EMBEDDED]);
  const v4 = samples(specialRanges(ipaddr.IPv4.prototype), skip);
  const v6 = samples(specialRanges(ipaddr.IPv6.prototype), skip);

  it('samples hundreds of addresses', () => {
    expect(v4.length + v6.length).toBeGreaterThan(400);
  });

  it('refuses every sampled IPv4 special address', () => {
    const accepted = v4.filter(([, address]) => classifyIp(address).public);
    expect(accepted).toEqual([]);
  });

  it('refuses every sampled IPv6 special address', () => {
    const accepted = v6.filter(([, address]) => classifyIp(address).public);
    expect(accepted).toEqual([]);
  });

  it('refuses mapped and NAT64 forms of every sampled IPv4 special address', () => {
    const accepted = v4
      .flatMap(([, address]) => {
        const hex = ipaddr.IPv4.parse(address)
          .toIPv4MappedAddress()
          .toString()
          .replace('::ffff:', '');
        return [`::ffff:${address}`, `64:ff9b::${hex}`];
      })
      .filter((address) => classifyIp(address).public);
    expect(accepted).toEqual([]);
  });
});
