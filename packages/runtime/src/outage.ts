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

/**
 * The outage reporting every process wires to PostgreSQL and Redis: one reporter each, and the
 * callbacks to hand to `createDb` and `createRedis`, so an outage is one warning and one
 * recovery line whichever connection notices it.
 */
export function createDependencyOutages(logger: Logger) {
  const postgres = createOutageReporter(logger, 'postgres', 'connection lost');
  const redis = createOutageReporter(logger, 'redis', 'connection lost');
  return {
    postgres,
    redis,
    /** For `createDb`'s options. */
    postgresEvents: {
      onConnectionError: (err: Error) => postgres.failed(err),
      onConnect: () => postgres.recovered(),
    },
    /** For `createRedis`'s events. */
    redisEvents: {
      onError: (err: Error) => redis.failed(err),
      onReady: () => redis.recovered(),
    },
  };
}
