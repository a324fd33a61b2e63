export { createRegistry } from './registry.ts';
export { bearerAllowed, serveMetrics } from './metrics-endpoint.ts';
export { probeAll, type Probe } from './readiness.ts';
export { sameSecret } from './same-secret.ts';
// One prom-client for every app: metrics built with another copy would not join the registry.
export { Counter, Gauge, Histogram, Registry } from 'prom-client';
