import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * prom-client's default gauges whose names end in `_total`, a suffix Prometheus reserves for
 * counters (`promtool check metrics` flags them). Each is only the sum of its labelled
 * namesake (`nodejs_active_handles{type}`), so nothing is lost: `sum(nodejs_active_handles)`.
 */
const GAUGES_NAMED_LIKE_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * A registry of its own per process role, with Node's default metrics (event-loop lag, heap,
 * GC, handles) in it. Not prom-client's global registry: tests start an API and a worker's
 * pieces in one process, and each must report only its own series.
 */
export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);
  return registry;
}
