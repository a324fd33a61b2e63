export {
  cloneDatabase,
  createTemplateDatabase,
  databaseUrl,
  dropDatabase,
  dropStaleDatabases,
  uniqueDatabaseName,
  type StaleDatabaseOptions,
} from './databases.ts';
export { dockerReachable } from './docker.ts';
export { flushPrefix, redisKeyPrefix } from './redis-keys.ts';
export { resolveTestServers, type ResolveOptions, type TestServers } from './servers.ts';
