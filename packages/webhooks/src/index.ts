export * from './signing.ts';
export * from './endpoint-url.ts';
export * from './endpoints.ts';
export * from './record.ts';
export * from './schedule.ts';
export * from './deliver.ts';
export * from './relay.ts';
export * from './fair-share.ts';
