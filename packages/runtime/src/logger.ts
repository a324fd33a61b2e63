import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { resolveLogFormat, type LogFormat } from './env.ts';
import { logContextMixin } from './log-context.ts';
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
    mixin: logContextMixin,
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

export interface LogOutput {
  /** `json` (one object a line) or `pretty` (coloured lines for people); JSON when unset. */
  format?: LogFormat;
  /** Where lines go; stdout when unset. */
  destination?: DestinationStream;
}

/** A logger; credentials and clients' data never reach its output, whatever a caller logs. */
export function createLogger(level: string, name: string, output: LogOutput = {}): Logger {
  const options = loggerOptions(level, name);
  if (output.format === 'pretty') {
    // Formatted in this thread rather than in a transport's worker thread: at the rates a
    // person reads, the cost does not matter, and the last lines before an exit are not lost.
    const stream = pretty({
      colorize: output.destination ? false : process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
      sync: true,
      ...(output.destination ? { destination: output.destination } : {}),
    });
    return pino(options, stream);
  }
  return pino(options, output.destination ?? bufferedStdout());
}

/** Lines wait at most this long in the buffer when traffic is too light to fill it. */
const FLUSH_INTERVAL_MS = 1_000;

/**
 * Standard output written in 4 KiB batches from a buffer: one write per request's line was a
 * measurable share of the API's CPU (docs/performance.md). The buffer is flushed on the
 * process's `exit` event, which follows `process.exit`, the end of the event loop and an
 * uncaught exception alike; only a SIGKILL loses the last lines.
 *
 * The batches are written synchronously: the saving is in writing 4 KiB at a time, and an
 * asynchronous write still in flight when the exit flush writes the rest could land after it,
 * putting a process's last lines out of order (seen under load).
 */
function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: true, minLength: 4096 });
  process.once('exit', () => stream.flushSync());
  setInterval(() => stream.flush(), FLUSH_INTERVAL_MS).unref();
  return stream;
}

/** The logger of an app process, from its configuration's LOG_LEVEL, LOG_FORMAT and NODE_ENV. */
export function createAppLogger(
  config: { LOG_LEVEL: string; LOG_FORMAT?: LogFormat | undefined; NODE_ENV?: string | undefined },
  name: string,
): Logger {
  return createLogger(config.LOG_LEVEL, name, {
    format: resolveLogFormat(config.LOG_FORMAT, config.NODE_ENV),
  });
}
