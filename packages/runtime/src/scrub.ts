/**
 * What an error may say once it leaves the code that caught it (a log line, a failure reason
 * stored on a row or a job): its kind, code and a message with every value that could be a
 * client's data taken out. Driver errors are the danger: drizzle puts the SQL and its parameters
 * (sources, outputs, metadata, key hashes) into its message, PostgreSQL quotes offending values
 * in its own and puts whole rows into `detail`.
 */

/** Longest message kept; a reason is a sentence, not a document. */
const MAX_MESSAGE = 300;

const REDACTED = '[redacted]';

// Credentials that have a recognisable shape are removed wherever they turn up.
const SECRET_SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/\bsk_live_[0-9A-Za-z]+/g, `sk_live_${REDACTED}`],
  [/\bwhsec_[0-9A-Za-z+/=]+/g, `whsec_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[^\s,;"']+/gi, `$1 ${REDACTED}`],
];

// A URL may carry credentials, tokens in its query or a client's data in its path: only its
// origin is kept.
const URL_SHAPE = /\b([a-z][a-z0-9+.-]*):\/\/[^\s"'<>]+/gi;

function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.host === '') return `${parsed.protocol}//${REDACTED}`;
    const rest = url.length > parsed.origin.length ? '/…' : '';
    return `${parsed.protocol}//${parsed.host}${rest}`;
  } catch {
    return REDACTED;
  }
}

/** A message with parameters, URLs and credential-shaped strings taken out, and shortened. */
export function scrubText(text: string): string {
  let out = text;
  // drizzle: "Failed query: <sql>\nparams: <values>"; the SQL names no values but says nothing
  // an operator needs either, and its parameters are exactly what must not be written.
  if (/^Failed query:/.test(out)) out = 'database query failed';
  out = out.replace(/\bparams:[\s\S]*$/i, `params: ${REDACTED}`);
  out = out.replace(URL_SHAPE, (url) => originOf(url));
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out.length > MAX_MESSAGE ? `${out.slice(0, MAX_MESSAGE)}…` : out;
}

interface PgErrorFields {
  code: string;
  severity: string;
  message: string;
  constraint?: string;
  table?: string;
  column?: string;
  schema?: string;
  dataType?: string;
}

/** A PostgreSQL server error (node-postgres DatabaseError): a SQLSTATE and a severity. */
function isPgError(err: object): err is PgErrorFields {
  const { code, severity, message } = err as Partial<PgErrorFields>;
  return (
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    typeof severity === 'string' &&
    typeof message === 'string'
  );
}

/**
 * PostgreSQL quotes both names ("extractions_pkey") and values ("not-a-uuid") in its messages:
 * names the error itself reports as such are kept, every other quoted text is removed. A
 * message a database function raised (class P0) may say anything, so none of it is kept.
 */
function pgMessage(err: PgErrorFields): string {
  if (err.code.startsWith('P0')) return 'raised by a database function';
  const names = new Set(
    [err.constraint, err.table, err.column, err.schema, err.dataType].filter(
      (n): n is string => typeof n === 'string',
    ),
  );
  return err.message
    .replace(/"([^"]*)"/g, (quoted, inner: string) => (names.has(inner) ? quoted : `"${REDACTED}"`))
    .replace(/'[^']*'/g, `'${REDACTED}'`);
}

export interface SafeError {
  name?: string;
  code?: string;
  message: string;
  /** The names of a PostgreSQL error: which constraint, table, column. */
  constraint?: string;
  table?: string;
  column?: string;
  /** Stack frames only (never the first line, which repeats the message). */
  stack?: string;
  cause?: SafeError;
}

/** A SafeError without its stack and causes: what a line about an expected error says. */
export type ErrorSummary = Omit<SafeError, 'stack' | 'cause'>;

const MAX_CAUSES = 4;

function describe(err: unknown, withStack: boolean, depth: number): SafeError {
  if (typeof err !== 'object' || err === null) return { message: scrubText(String(err)) };
  const { name, code, message, cause, stack } = err as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    stack?: unknown;
  };
  const safe: SafeError = { message: 'unknown error' };
  if (typeof name === 'string') safe.name = name;
  if (typeof code === 'string' || typeof code === 'number') safe.code = String(code);
  if (isPgError(err)) safe.message = scrubText(pgMessage(err));
  else if (typeof message === 'string') safe.message = scrubText(message);
  // Names, never values; kept when a summary is summarised again (pino's `error` serializer).
  for (const field of ['constraint', 'table', 'column'] as const) {
    const value = (err as Record<string, unknown>)[field];
    if (typeof value === 'string') safe[field] = value;
  }
  if (withStack && typeof stack === 'string') {
    const frames = stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .map((line) => scrubText(line.trim()));
    if (frames.length > 0) safe.stack = frames.join('\n');
  }
  if (cause !== undefined && depth < MAX_CAUSES) safe.cause = describe(cause, false, depth + 1);
  return safe;
}

/**
 * The whole error for a log line about a bug: kind, code, scrubbed message, stack frames and
 * the chain of causes. pino's serializer for `err`.
 */
export function serializeError(err: unknown): SafeError {
  return describe(err, true, 0);
}

/**
 * What a log line may say about an expected error (an outage, a failed attempt): its kind, code
 * and scrubbed message, taken from the innermost cause that says more than "query failed".
 */
export function errorSummary(err: unknown): ErrorSummary {
  const { stack: _stack, cause, ...top } = describe(err, false, 0);
  // drizzle's own error says only that a query failed; the driver's error under it says why.
  if (top.message === 'database query failed' && cause) {
    const { cause: _inner, stack: _s, ...driver } = cause;
    return { ...driver, message: `database query failed: ${driver.message}` };
  }
  return top;
}

/** A failure reason to store (on a row, on a job): the scrubbed message only. */
export function safeReason(err: unknown): string {
  return errorSummary(err).message;
}
