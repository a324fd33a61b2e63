import { createAppLogger, runService } from '@xt/runtime';
import { loadConfig } from './config.ts';
import { startApi } from './server.ts';

await runService({
  loadConfig: () => loadConfig(),
  logger: (config) => createAppLogger(config, 'api'),
  start: (config, logger) => startApi(config, logger),
  started: (_config, logger, api) => logger.info({ url: api.url }, `API listening on ${api.url}`),
});
