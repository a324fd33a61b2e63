import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { startApi } from './server.ts';

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
})();
const logger = createLogger(config.LOG_LEVEL);
const api = await startApi(config, logger);
logger.info({ url: api.url }, `API listening on ${api.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    api.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
