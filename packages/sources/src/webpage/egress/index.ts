/** Guards what a rendered page may reach: the filtering proxy, its per-job sessions, the route guard. */
export {
  parseAuthority,
  startFilteringProxy,
  type FilteringProxy,
  type FilteringProxyOptions,
  type ProxyCounters,
  type TargetCheck,
} from './proxy.ts';
export type { ProxyRefusal, ProxySession } from './proxy-sessions.ts';
export { routeGuard } from './route-guard.ts';
