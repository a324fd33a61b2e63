export * from './schema.ts';
export * from './client.ts';
export * from './migrate.ts';
export * from './unavailable.ts';
export * from './prepared.ts';
export * from './listen.ts';
export * from './violations.ts';
