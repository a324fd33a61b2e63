import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startWorker } from './worker.ts';

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
})();
const logger = createLogger(config.LOG_LEVEL, config.WORKER_NAME);
const worker = await startWorker(config, logger);
logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker started');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'draining');
    worker.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
