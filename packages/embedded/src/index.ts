export { freePort, isPortFree } from './free-port.ts';
export { choosePort } from './stable-port.ts';
export { pingRedis } from './ping-redis.ts';
export { startEmbeddedPostgres, type EmbeddedPostgresOptions } from './postgres.ts';
export { startRedisServer, type RedisServerOptions, type RunningServer } from './redis.ts';
export { REDIS_MISSING_MESSAGE } from './redis-binary.ts';
export { closedAncestor } from './postgres-layout.ts';
export {
  ensureSystemPackages,
  packagesFor,
  SystemPackagesMissing,
  type Purpose,
} from './system-packages/index.ts';
