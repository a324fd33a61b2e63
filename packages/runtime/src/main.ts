import type { Logger } from 'pino';
import { errorSummary } from './scrub.ts';
import { SETTINGS_EXIT_CODE, SettingsError } from './settings-error.ts';

/**
 * The entry-point routine every app shares: load the configuration, start, and on SIGTERM or
 * SIGINT close gracefully and exit. A bad configuration, or an address the process cannot listen
 * on, prints one line naming the setting (no stack trace) and exits with SETTINGS_EXIT_CODE.
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
    process.exit(SETTINGS_EXIT_CODE);
  }
  const logger = options.logger(config);
  // A promise nobody awaited failing (a dependency call from a timer, say) must not end a
  // process that is serving others: log it as the bug it is and carry on.
  process.on('unhandledRejection', (reason) => {
    logger.error({ error: errorSummary(reason) }, 'unhandled promise rejection');
  });
  let service: S;
  try {
    service = await options.start(config, logger);
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    logger.fatal(err.message);
    process.exit(SETTINGS_EXIT_CODE);
  }
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
