import { timingSafeEqual } from 'node:crypto';

/** Compares a presented credential with the configured one without leaking how much matched. */
export function sameSecret(presented: string | Buffer, expected: string | Buffer): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
