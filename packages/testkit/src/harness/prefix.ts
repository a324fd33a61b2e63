import { randomBytes } from 'node:crypto';

/** A queue/key prefix of its own for each test, so tests sharing one Redis never meet. */
export function uniquePrefix(label = 't'): string {
  return `${label}${process.pid}${randomBytes(4).toString('hex')}`;
}
