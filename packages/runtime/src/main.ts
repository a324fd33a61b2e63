import type { Logger } from 'pino';
import { errorSummary } from './scrub.ts';

/**
 * The entry-point routine every app shares: load the configuration (a bad one prints its message
 * and exits 1), start, and on SIGTERM or SIGINT close gracefully and exit.
 */
export async function runService<C, S extends { close(): Promise<void> }>(options: {
  loadConfig: () => C;
  logger: (config: C) => Logger;
  start: (config: C, logger: Logger) => Promise<S>;
  started: (config: C, logger: Logger, service: S) => void;
}): Promise<void> {
  let config: C;
  try {
    config = options.loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const logger = options.logger(config);
  // A promise nobody awaited failing (a dependency call from a timer, say) must not end a
  // process that is serving others: log it as the bug it is and carry on.
  process.on('unhandledRejection', (reason) => {
    logger.error({ error: errorSummary(reason) }, 'unhandled promise rejection');
  });
  const service = await options.start(config, logger);
  options.started(config, logger, service);
  // Log lines are buffered (logger.ts): whoever waits for "listening" should not wait for more.
  logger.flush();
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // `on`, not `once`: a repeated signal (Ctrl-C relayed by npm) must not kill a draining process.
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      service.close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
