import type { Logger } from 'pino';
import type { WorkerConfig } from '../config.ts';
import type { SourceHandlers } from './index.ts';

/**
 * The URL source types (pdf, image, webpage), built from configuration. Each type's preparation
 * lives in its own folder; this only wires them to the worker's limits.
 */
export function createSourceHandlers(_config: WorkerConfig, _logger: Logger): SourceHandlers {
  return {};
}
