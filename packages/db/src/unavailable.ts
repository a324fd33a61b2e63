/**
 * Tells a database that is not there (down, restarting, refusing connections, overloaded) from
 * every other error, so callers can answer 503 or retry later instead of failing for good.
 */
import { NETWORK_ERROR_CODES } from '@xt/runtime';

// SQLSTATEs meaning "not now" rather than "never": shutdown, start-up, too many connections,
// out of resources, statement timeout.
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement_timeout)
  '53300', // too_many_connections
  '53200', // out_of_memory
  '53100', // disk_full
  '25P03', // idle_in_transaction_session_timeout
]);

// What node-postgres and its pool say when a connection goes away or cannot be had in time.
const CLIENT_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
];

function isUnavailableOne(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    // Class 08: connection exceptions.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return typeof message === 'string' && CLIENT_MESSAGES.some((re) => re.test(message));
}

/** True when `err`, or any error in its `cause` chain (drizzle wraps driver errors), is one. */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    if (isUnavailableOne(current)) return true;
    if (current instanceof AggregateError && current.errors.some(isUnavailableOne)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
