export * from './schema.ts';
export * from './client.ts';
export * from './migrate.ts';
export * from './unavailable.ts';
export * from './prepared.ts';
