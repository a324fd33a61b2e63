import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { scrubText, serializeError } from './scrub.ts';

export type { Logger };

/**
 * Fields that hold a client's data or a credential, wherever a caller puts them (top level or
 * one object down). Their values are never written; URLs keep only what says where.
 */
const SENSITIVE_FIELDS = [
  'authorization',
  'cookie',
  'apiKey',
  'api_key',
  'keyHash',
  'hash',
  'password',
  'secret',
  'webhookSecret',
  'token',
  'source',
  'output',
  'metadata',
  'body',
  'params',
  'detail',
  'url',
  'finalUrl',
];

export const REDACT_PATHS = [
  ...SENSITIVE_FIELDS,
  ...SENSITIVE_FIELDS.map((f) => `*.${f}`),
  'req.headers.authorization',
  'req.headers.cookie',
];

/** A URL becomes its origin (absolute) or its path (relative); anything else disappears. */
function censor(value: unknown, path: string[]): unknown {
  const field = path[path.length - 1] ?? '';
  if (/url$/i.test(field) && typeof value === 'string') {
    if (value.startsWith('/')) return value.split('?')[0];
    return scrubText(value);
  }
  return '[redacted]';
}

/**
 * The options every logger of the service is built with: errors serialised through the
 * scrubber (kind, code, scrubbed message, stack frames), sensitive fields censored, and
 * messages scrubbed too, since some are built from error text.
 */
export function loggerOptions(level: string, name: string): LoggerOptions {
  return {
    name,
    level,
    serializers: { err: serializeError, error: serializeError },
    redact: { paths: REDACT_PATHS, censor },
    hooks: {
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        // `log.error(err)` would make the raw message the line's message.
        if (first instanceof Error) {
          const msg = typeof rest[0] === 'string' ? rest[0] : serializeError(first).message;
          method.apply(this, [{ err: first }, scrubText(msg)]);
          return;
        }
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<
            typeof method
          >,
        );
      },
    },
  };
}

/** JSON logs; credentials and clients' data never reach them, whatever a caller logs. */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = loggerOptions(level, name);
  return destination ? pino(options, destination) : pino(options);
}
