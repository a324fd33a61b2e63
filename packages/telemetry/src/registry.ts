import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A registry of its own per process role, with Node's default metrics (event-loop lag, heap,
 * GC, handles) in it. Not prom-client's global registry: tests start an API and a worker's
 * pieces in one process, and each must report only its own series.
 */
export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
