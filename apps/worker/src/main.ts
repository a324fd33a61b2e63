import { createAppLogger, runService } from '@xt/runtime';
import { loadConfig } from './config.ts';
import { startWorker } from './worker.ts';

await runService({
  loadConfig: () => loadConfig(),
  logger: (config) => createAppLogger(config, config.WORKER_NAME),
  start: (config, logger) => startWorker(config, logger),
  started: (config, logger) =>
    logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker started'),
});
