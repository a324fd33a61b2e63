/**
 * Tells Redis being away (refused, reset, hung, reconnecting) from other errors, so callers log
 * it once per outage and fall back instead of treating it as a bug.
 */
import { NETWORK_ERROR_CODES } from '@xt/runtime';

const MESSAGES = [
  /Connection is closed/i,
  /Command timed out/i,
  /Stream isn't writeable/i,
  /enableOfflineQueue/i,
  /Reached the max retries per request limit/i,
  /LOADING Redis is loading/i,
  /connect ETIMEDOUT/i,
];

export function isRedisUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
    if (typeof message === 'string' && MESSAGES.some((re) => re.test(message))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
