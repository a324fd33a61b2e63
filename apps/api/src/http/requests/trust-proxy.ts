import { isIP } from 'node:net';
import { z } from 'zod';

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validEntry(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  // A mask written as an address (10.0.0.0/255.0.0.0) is what proxy-addr also accepts.
  if (isIP(bits) === family) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as Express's `trust proxy` wants it: `true`/`false`, a number of proxy hops in
 * front of the API (`1` behind one load balancer, whatever address it has), or a comma list of
 * addresses, CIDRs and the names loopback, linklocal, uniquelocal. As a plain string Express
 * would take `1` for an address and refuse it, so the forms are told apart here.
 */
export const trustProxySetting = z
  .string()
  .default('loopback')
  .transform((text, ctx): boolean | number | string => {
    const value = text.trim();
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const bad = value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => !validEntry(entry));
    if (bad.length === 0) return value;
    ctx.addIssue({
      code: 'custom',
      message: `not true/false, a hop count, or addresses/CIDRs/loopback/linklocal/uniquelocal: ${bad.join(', ')}`,
    });
    return z.NEVER;
  });
