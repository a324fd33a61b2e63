import { AsyncLocalStorage } from 'node:async_hooks';

export type LogContext = Record<string, string | number>;

const storage = new AsyncLocalStorage<LogContext>();

/**
 * Runs `work` with fields (extraction id, request id, attempt, trace id) that every log line
 * written meanwhile carries, by whichever logger: code shared between jobs (source preparation,
 * the browser, the model client) logs through loggers made at start-up, not the job's own.
 */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, work);
}

/** pino's mixin: the context's fields the calling logger is not already bound to. */
export function logContextMixin(
  _merge: object,
  _level: number,
  logger: { bindings(): Record<string, unknown> },
): object {
  const context = storage.getStore();
  if (!context) return {};
  const bound = logger.bindings();
  const extra: LogContext = {};
  for (const [key, value] of Object.entries(context)) if (!(key in bound)) extra[key] = value;
  return extra;
}

/**
 * Runs `work` outside any job's context: for resources shared by later jobs (a browser, a
 * proxy server), whose event handlers would otherwise write the first job's ids on lines
 * about other jobs.
 */
export function outsideLogContext<T>(work: () => T): T {
  return storage.exit(work);
}
