import type { Logger } from 'pino';
import { errorSummary } from './scrub.ts';

export interface OutageReporter {
  /** A call to the dependency failed: the first failure of an outage logs one warning. */
  failed(err: unknown): void;
  /** A call succeeded: ends the outage, if there was one, with one info line. */
  recovered(): void;
  readonly down: boolean;
}

/**
 * One structured warning when a dependency starts failing and one line when it answers again,
 * instead of a line (or a stack) per failed request or reconnect attempt.
 */
export function createOutageReporter(
  logger: Logger,
  dependency: string,
  what = 'unavailable',
): OutageReporter {
  let since: number | undefined;
  let failures = 0;
  return {
    failed(err) {
      failures += 1;
      if (since !== undefined) return;
      since = Date.now();
      logger.warn({ dependency, error: errorSummary(err) }, `${dependency} ${what}`);
    },
    recovered() {
      if (since === undefined) return;
      logger.info(
        { dependency, outageMs: Date.now() - since, failures },
        `${dependency} available again`,
      );
      since = undefined;
      failures = 0;
    },
    get down() {
      return since !== undefined;
    },
  };
}
