/**
 * Socket-level failures reaching or talking to a server: the dependency is away, not wrong.
 * Shared by the PostgreSQL and Redis checks so both call the same things an outage.
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
