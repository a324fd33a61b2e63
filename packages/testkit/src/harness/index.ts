export * from './database.ts';
export * from './processes.ts';
export * from './prefix.ts';
export * from './wait.ts';
export * from './failure.ts';
export * from './seed-extractions.ts';
export * from './pgbouncer.ts';
export * from './redis-cluster.ts';
