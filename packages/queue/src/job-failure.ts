import { errorSummary, scrubText, serializeError } from '@xt/runtime';

// BullMQ's control-flow errors carry no data and must reach it unchanged.
const CONTROL = new Set(['DelayedError', 'WaitingError', 'WaitingChildrenError', 'RateLimitError']);

/**
 * The error a job handler throws, made fit to be stored: BullMQ writes its message as the job's
 * failedReason and its stack into the job, where anyone with Redis access reads them. The same
 * object is kept (its class and fields decide retries and backoff); only its message and stack
 * are replaced by their scrubbed forms.
 */
export function forJobFailure(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(scrubText(String(err)));
  if (CONTROL.has(err.name)) return err;
  const { stack } = serializeError(err);
  err.message = errorSummary(err).message;
  err.stack = `${err.name}: ${err.message}${stack ? `\n${stack}` : ''}`;
  return err;
}
